import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { EmailVerificationPage } from './email-verification-page.tsx';

vi.mock('../api/auth-api.ts', () => ({
  authApi: {
    verifyEmail: vi.fn(async () => ({ email: 'lan@example.com', user: null, alreadyVerified: true })),
  },
}));

describe('a verification link opened a second time', () => {
  it('says the address is already verified, not that the link is invalid', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/emailVerification?code=used-code']}>
          <EmailVerificationPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('heading', { name: '這個信箱已經驗證完成' })).toBeTruthy();
    expect(screen.getByText(/先前已經完成驗證/)).toBeTruthy();
    expect(screen.queryByText(/連結無效/)).toBeNull();
  });
});

describe('words shown to shoppers', () => {
  it('never speak of the server or of codes: no developer wording in the shop’s pages', async () => {
    const { existsSync, readdirSync, readFileSync, statSync } = await import('node:fs');
    const { join } = await import('node:path');
    // apps/web/src, whether the run started in the repository or in apps/web.
    const root = [join(process.cwd(), 'apps/web/src'), join(process.cwd(), 'src')].find((dir) =>
      existsSync(join(dir, 'main.tsx')),
    )!;
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(path);
      }
    };
    for (const dir of ['app', 'features', 'components']) walk(join(root, dir));
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) =>
      /以伺服器計算為準|資料有誤（|查詢參數有誤/.test(readFileSync(file, 'utf8')) ? [file] : [],
    );
    expect(found).toEqual([]);
  });
});
