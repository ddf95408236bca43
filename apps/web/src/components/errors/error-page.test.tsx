import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ApiError } from '../../lib/api-error.ts';
import { NotFoundRoute, RouteError } from './route-error.tsx';
import { ErrorPage } from './error-page.tsx';

/** Opens / with a loader that throws `thrown` (or a page that throws it while rendering). */
function renderFailingRoute(thrown: unknown, where: 'loader' | 'render' = 'loader') {
  // React and the router report the error on the console; here it is the point of the test.
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const Page = () => {
    throw thrown;
  };
  const router = createMemoryRouter([
    {
      path: '/',
      ...(where === 'loader'
        ? {
            loader: () => {
              throw thrown;
            },
          }
        : {}),
      Component: Page,
      ErrorBoundary: RouteError,
    },
  ]);
  render(<RouterProvider router={router} />);
}

describe('error page', () => {
  it('shows 404, Page Not Found and the path for an unknown route', async () => {
    const router = createMemoryRouter([{ path: '*', element: <NotFoundRoute /> }], {
      initialEntries: ['/that/path'],
    });
    render(<RouterProvider router={router} />);
    expect((await screen.findByTestId('error-status')).textContent).toBe('404');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('找不到這個頁面');
    expect(screen.getByTestId('error-status-message').textContent).toBe('Page Not Found');
    expect(screen.getByText('Page not found: /that/path')).toBeTruthy();
    expect(screen.getByRole('link', { name: '回到首頁' }).getAttribute('href')).toBe('/');
  });

  it('offers a retry for a server error', () => {
    const router = createMemoryRouter([
      {
        path: '/',
        element: (
          <ErrorPage
            status={500}
            statusMessage="Internal Server Error"
            description="頁面發生錯誤"
            onRetry={() => {}}
          />
        ),
      },
    ]);
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('button', { name: '重新載入' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('伺服器暫時出了狀況');
    expect(screen.getByTestId('error-status-message').textContent).toBe('Internal Server Error');
  });

  it("shows the real status and the server's message for a status other than 404", async () => {
    renderFailingRoute(
      new Response(JSON.stringify({ error: { code: 'forbidden', message: '您沒有權限進行這項操作。' } }), {
        status: 403,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect((await screen.findByTestId('error-status')).textContent).toBe('403');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('沒有權限查看這個頁面');
    expect(screen.getByTestId('error-status-message').textContent).toBe('Forbidden');
    expect(screen.getByText('您沒有權限進行這項操作。')).toBeTruthy();
  });

  it("shows an API error's status and zh-TW message", async () => {
    renderFailingRoute(new ApiError(503, 'internal-error', '伺服器暫時無法回應，請稍後再試。'));
    expect((await screen.findByTestId('error-status')).textContent).toBe('503');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('伺服器暫時出了狀況');
    expect(screen.getByTestId('error-status-message').textContent).toBe('Service Unavailable');
    expect(screen.getByText('伺服器暫時無法回應，請稍後再試。')).toBeTruthy();
  });

  it('does not call a crash in the browser a server error', async () => {
    renderFailingRoute(new TypeError("Cannot read properties of undefined (reading 'map')"), 'render');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('發生錯誤');
    expect(screen.queryByTestId('error-status')).toBeNull();
    expect(screen.queryByText(/500|Internal Server Error/)).toBeNull();
    expect(screen.getByRole('button', { name: '重新載入' })).toBeTruthy();
  });
});
