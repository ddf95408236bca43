import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { MaintenanceStatus } from '@shop/shared/site';
import MaintenancePage from './maintenance.tsx';

function renderAt(url: string, status: MaintenanceStatus) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(['site', 'status'], status);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/maintenance" element={<MaintenancePage />} />
          <Route path="/mall" element={<h1>線上商城</h1>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('/maintenance', () => {
  it('says when to call with a space between the hours and 來電', () => {
    renderAt('/maintenance', { enabled: true, endsAt: null, message: '系統維護中，請稍後再來。' });
    const line = screen.getByText(/如有急事/);
    expect(line.textContent).toBe(
      '如有急事，請來信 service@shanlan-tea.example 或於週一至週五 09:00–18:00 來電 049-275-1987。',
    );
  });

  it('sends a page moved here back where it was once the shop is open again', () => {
    renderAt(`/maintenance?next=${encodeURIComponent('/mall')}`, {
      enabled: false,
      endsAt: null,
      message: '',
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('線上商城');
  });

  it('stays while maintenance goes on, and never follows a link to another site', () => {
    renderAt(`/maintenance?next=${encodeURIComponent('/mall')}`, {
      enabled: true,
      endsAt: null,
      message: '盤點中。',
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('系統維護中');
    for (const next of ['//evil.example/', 'https://evil.example/']) {
      document.body.innerHTML = '';
      renderAt(`/maintenance?next=${encodeURIComponent(next)}`, {
        enabled: false,
        endsAt: null,
        message: '',
      });
      expect(screen.getByRole('heading', { level: 1 }).textContent, next).toBe('系統維護已完成');
    }
  });
});
