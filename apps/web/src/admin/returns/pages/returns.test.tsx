import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TransferTasksResponse } from '@shop/shared/returns';
import ReturnsPage from './returns.tsx';

vi.mock('../api.ts', () => ({ returnsApi: { list: vi.fn(), transfers: vi.fn(), transferDone: vi.fn() } }));
vi.mock('../../shared/use-admin-me.ts', () => ({ useCan: () => true }));

const tasks: TransferTasksResponse = {
  items: [
    {
      id: '0b7f3c52-5d0e-4a4b-9d7c-1e2f3a4b5c01',
      orderNo: 'TW20261122000001',
      memberName: '林小嵐',
      amount: 1480,
      reason: '退貨 TW20261122000001-R1',
      bank: { bankCode: '812', bankName: '台新銀行', account: '2888123456781234', holder: '林小嵐' },
      createdAt: '2026-11-26T02:00:00Z',
    },
    {
      id: '0b7f3c52-5d0e-4a4b-9d7c-1e2f3a4b5c02',
      orderNo: 'TW20261123000002',
      memberName: '陳文山',
      amount: 620,
      reason: '退貨 TW20261123000002-R1',
      bank: null,
      createdAt: '2026-11-26T03:00:00Z',
    },
  ],
};

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/admin/returns']}>
        <ReturnsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  const { returnsApi } = await import('../api.ts');
  vi.mocked(returnsApi.transfers).mockResolvedValue(tasks);
  vi.mocked(returnsApi.list).mockResolvedValue({
    items: [
      {
        returnNo: 'TW20261122000001-R1',
        orderNo: 'TW20261122000001',
        status: 'requested',
        memberName: '林小嵐',
        memberEmail: 'lan@example.com',
        reason: '商品瑕疵或運送損壞',
        amount: 1480,
        itemCount: 2,
        refund: null,
        requestedAt: '2026-11-25T06:05:00Z',
      },
    ],
    page: 1,
    pageSize: 20,
    total: 1,
    totalPages: 1,
  });
});

describe('/admin/returns', () => {
  it('lists the open returns, each linking to its order, and filters by status through the URL', async () => {
    const { returnsApi } = await import('../api.ts');
    renderPage();
    const link = await screen.findByRole('link', { name: 'TW20261122000001-R1' });
    expect(link.getAttribute('href')).toBe('/admin/orders/TW20261122000001#returns');
    expect(returnsApi.list).toHaveBeenLastCalledWith({ status: 'open', page: 1 }, expect.anything());
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '狀態' }), '等待審核');
    await vi.waitFor(() =>
      expect(returnsApi.list).toHaveBeenLastCalledWith({ status: 'requested', page: 1 }, expect.anything()),
    );
  });

  it('shows a transfer with its account in groups of four; one without an account waits, with no button', async () => {
    renderPage();
    const list = await screen.findByRole('list', { name: '待轉帳退款' });
    const [ready, waiting] = within(list).getAllByRole('listitem');
    expect(ready!.textContent).toContain('2888 1234 5678 1234');
    expect(ready!.textContent).toContain('台新銀行（812）');
    expect(within(ready!).getByRole('button', { name: /^標記已轉帳/ })).toBeTruthy();
    expect(waiting!.textContent).toContain('等待會員提供帳戶');
    expect(within(waiting!).queryByRole('button', { name: /標記已轉帳/ })).toBeNull();
    expect(within(list).getAllByRole('button', { name: /^標記已轉帳/ })).toHaveLength(1);
  });

  it('marks a transfer done with the optional note, then shows the tasks the server answers', async () => {
    const { returnsApi } = await import('../api.ts');
    vi.mocked(returnsApi.transferDone).mockResolvedValue({ items: [tasks.items[1]!] });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: /^標記已轉帳：TW20261122000001/ }));
    const dialog = await screen.findByRole('dialog', { name: '標記已轉帳：TW20261122000001' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: '備註' }), '網銀序號 0042');
    await userEvent.click(within(dialog).getByRole('button', { name: '標記已轉帳' }));
    await vi.waitFor(() =>
      expect(returnsApi.transferDone).toHaveBeenCalledWith(
        '0b7f3c52-5d0e-4a4b-9d7c-1e2f3a4b5c01',
        '網銀序號 0042',
      ),
    );
    await vi.waitFor(() =>
      expect(
        screen
          .getAllByRole('listitem')
          .some((li) => li.textContent?.includes('TW20261122000001') && li.textContent.includes('NT$1,480')),
      ).toBe(false),
    );
  });
});
