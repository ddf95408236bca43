import { Suspense } from 'react';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { ChunkReloadDeps } from '../lib/reload-guard.ts';
import { ADMIN_PAGES, consolePages } from './page-modules.ts';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

const failedChunk = () =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/orders-abc123.js'));

function renderPage(Page: React.ComponentType) {
  return render(
    <MemoryRouter initialEntries={['/admin/orders']}>
      <Suspense fallback={<p>載入中</p>}>
        <Page />
      </Suspense>
    </MemoryRouter>,
  );
}

describe('console pages whose chunk fails to load', () => {
  it('reload the page once, like the shop, and show the 500 page if the chunk still fails', async () => {
    const storage = memoryStorage();
    let now = 100_000;
    const deps: ChunkReloadDeps = { path: () => '/admin/orders', now: () => now, storage, reload: vi.fn() };

    const first = consolePages({ ...ADMIN_PAGES, orders: failedChunk }, deps);
    const view = renderPage(first.orders);
    await vi.waitFor(() => expect(deps.reload).toHaveBeenCalledTimes(1));
    // The page is going away: it keeps its loading state rather than flashing an error.
    expect(screen.getByText('載入中')).toBeTruthy();
    view.unmount();

    // After the reload the chunk still fails (within 10 s): no second reload, the 500 page instead.
    now += 2_000;
    const second = consolePages({ ...ADMIN_PAGES, orders: failedChunk }, deps);
    renderPage(second.orders);
    expect((await screen.findByTestId('error-status')).textContent).toBe('500');
    expect(screen.getByRole('button', { name: '重新載入' })).toBeTruthy();
    expect(deps.reload).toHaveBeenCalledTimes(1);
  });

  it('render the page when its chunk loads', async () => {
    const deps: ChunkReloadDeps = {
      path: () => '/admin/orders',
      now: () => 0,
      storage: memoryStorage(),
      reload: vi.fn(),
    };
    const pages = consolePages(
      { ...ADMIN_PAGES, orders: () => Promise.resolve({ default: () => <h1>訂單</h1> }) },
      deps,
    );
    renderPage(pages.orders);
    expect((await screen.findByRole('heading', { name: '訂單' })).textContent).toBe('訂單');
    expect(deps.reload).not.toHaveBeenCalled();
  });
});
