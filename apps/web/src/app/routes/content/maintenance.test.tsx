import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import MaintenancePage from './maintenance.tsx';

describe('/maintenance', () => {
  it('says when to call with a space between the hours and 來電', () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client.setQueryData(['site', 'status'], {
      enabled: true,
      endsAt: null,
      message: '系統維護中，請稍後再來。',
    });
    render(
      <QueryClientProvider client={client}>
        <MaintenancePage />
      </QueryClientProvider>,
    );
    const line = screen.getByText(/如有急事/);
    expect(line.textContent).toBe(
      '如有急事，請來信 service@shanlan-tea.example 或於週一至週五 09:00–18:00 來電 049-275-1987。',
    );
  });
});
