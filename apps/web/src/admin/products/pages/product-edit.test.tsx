import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { PERMISSIONS } from '@shop/shared/admin';
import { adminMeQuery } from '../../shared/queries.ts';
import { categoriesQueryOptions } from '../../../features/catalog/api/catalog-api.ts';
import ProductEditPage from './product-edit.tsx';

vi.mock('../api.ts', () => ({ productsApi: { create: vi.fn(), update: vi.fn() } }));

function renderNewProduct() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(adminMeQuery().queryKey, {
    uid: 'u1',
    email: 'owner@example.com',
    displayName: '林店主',
    role: 'owner',
    permissions: [...PERMISSIONS],
  });
  client.setQueryData(categoriesQueryOptions().queryKey, {
    categories: [
      {
        slug: 'tea',
        name: '茶葉',
        description: '',
        productCount: 0,
        children: [{ slug: 'roasted-oolong', name: '炭焙烏龍', description: '', productCount: 0 }],
      },
    ],
  });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/admin/products/new']}>
        <Routes>
          <Route path="/admin/products/new" element={<ProductEditPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

// Typing fires input events, which React's onChange on a text field listens to.
const type = (label: string, value: string) =>
  fireEvent.input(screen.getByLabelText(label, { exact: false }), { target: { value } });
const settle = () => new Promise((r) => setTimeout(r, 30));

describe('the new-product page', () => {
  it('suggests the address from the Chinese name until the owner writes one', async () => {
    renderNewProduct();
    type('商品名稱', '凍頂烏龍');
    await settle();
    expect((screen.getByLabelText('網址代碼', { exact: false }) as HTMLInputElement).value).toBe(
      'dongding-oolong',
    );
    type('網址代碼', 'my-dongding');
    type('商品名稱', '凍頂烏龍 冬茶');
    await settle();
    expect((screen.getByLabelText('網址代碼', { exact: false }) as HTMLInputElement).value).toBe(
      'my-dongding',
    );
  });

  it('「有欄位需要修正」 after a refused save goes once the last field is fixed', async () => {
    renderNewProduct();
    fireEvent.click(screen.getAllByRole('button', { name: '建立商品' })[0]!);
    expect(await screen.findByText('有欄位需要修正，請查看標示紅字的欄位。')).toBeTruthy();
    type('商品名稱', '凍頂烏龍');
    fireEvent.change(screen.getByLabelText('分類', { exact: false }), {
      target: { value: 'roasted-oolong' },
    });
    type('第 1 個規格的 SKU', 'DD-75G');
    type('第 1 個規格的售價', '480');
    await settle();
    expect(screen.queryAllByRole('alert').map((a) => a.textContent)).toEqual([]);
    expect(screen.queryByText('有欄位需要修正，請查看標示紅字的欄位。')).toBeNull();
  });
});
