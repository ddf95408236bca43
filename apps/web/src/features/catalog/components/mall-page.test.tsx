import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { ProductCard, ProductListResponse } from '@shop/shared/catalog';
import { MallPage } from './mall-page.tsx';

const waiting = new Map<string, (r: ProductListResponse) => void>();
vi.mock('../../../lib/api-client.ts', () => ({
  apiGet: vi.fn((url: string) =>
    url.includes('categories')
      ? Promise.resolve({ categories: [] })
      : url.startsWith('/api/wishlist')
        ? Promise.resolve({ productIds: [] })
        : new Promise((resolve) => waiting.set(url, resolve)),
  ),
}));

const card = (n: number, name: string): ProductCard => ({
  id: `p${n}`,
  slug: `p-${n}`,
  name,
  summary: '',
  category: { slug: 'tea', name: '茶葉' },
  tags: [],
  priceMin: 450,
  priceMax: 450,
  compareAtPrice: null,
  inStock: true,
  image: null,
});
const page = (items: ProductCard[]): ProductListResponse => ({
  items,
  page: 1,
  pageSize: 12,
  total: items.length,
  totalPages: 1,
});

describe('the mall while another view loads', () => {
  it('does not show the previous view’s count and cards under the new heading', async () => {
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/mall']}>
          <MallPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await vi.waitFor(() => expect(waiting.size).toBe(1));
    act(() => [...waiting.values()][0]!(page([card(1, '阿里山金萱烏龍'), card(2, '炭焙鐵觀音')])));
    expect(await screen.findByRole('heading', { level: 2, name: '共 2 件商品' })).toBeTruthy();
    expect(screen.getByText('阿里山金萱烏龍')).toBeTruthy();

    // A search: the answer is on its way.
    await user.type(screen.getByRole('searchbox', { name: '搜尋商品' }), '鐵觀音');
    await user.click(screen.getByRole('button', { name: '搜尋' }));
    await vi.waitFor(() => expect(waiting.size).toBe(2));
    expect(screen.getByText('搜尋「鐵觀音」的結果')).toBeTruthy();
    expect(document.getElementById('results-title')?.textContent).toBe('載入商品中…');
    expect(screen.queryByText('阿里山金萱烏龍')).toBeNull();

    act(() => [...waiting.values()][1]!(page([card(2, '炭焙鐵觀音')])));
    expect(await screen.findByRole('heading', { level: 2, name: '共 1 件商品' })).toBeTruthy();
    expect(screen.getByText('炭焙鐵觀音')).toBeTruthy();
  });
});
