import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { NotFoundRoute } from './route-error.tsx';
import { ErrorPage } from './error-page.tsx';

describe('error page', () => {
  it('shows 404, Page Not Found and the path for an unknown route', () => {
    const router = createMemoryRouter([{ path: '*', element: <NotFoundRoute /> }], { initialEntries: ['/that/path'] });
    render(<RouterProvider router={router} />);
    expect(screen.getByTestId('error-status').textContent).toBe('404');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Page Not Found');
    expect(screen.getByText('Page not found: /that/path')).toBeTruthy();
    expect(screen.getByRole('link', { name: '回到首頁' }).getAttribute('href')).toBe('/');
  });

  it('offers a retry for a server error', () => {
    const router = createMemoryRouter(
      [{ path: '/', element: <ErrorPage status={500} statusMessage="Internal Server Error" description="頁面發生錯誤" onRetry={() => {}} /> }],
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('button', { name: '重新載入' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Internal Server Error');
  });
});
