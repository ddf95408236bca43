import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { STOCK_MOVE_LABELS, type StockLedgerEntry } from '@shop/shared/admin-products';
import { adminPath } from '@shop/shared/admin-routes';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { LoadError } from '../../../components/load-error.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { stockHistoryQuery } from '../queries.ts';
import { signed } from './product-badges.tsx';

/** What moved the stock, in the staff's words: the kind, then the reason when it says more. */
function why(e: StockLedgerEntry): string {
  const kind = STOCK_MOVE_LABELS[e.kind];
  return e.reason && e.reason !== kind ? `${kind}：${e.reason}` : kind;
}

/**
 * 「庫存紀錄」: every change of one variant's stock, newest first, a page at a time: when (Taiwan
 * time), how much, the stock after, why, the order that moved it and who did it.
 */
export function StockHistory({ productId, variantId }: { productId: string; variantId: string }) {
  const [page, setPage] = useState(1);
  const query = useQuery(stockHistoryQuery(productId, variantId, page));
  const data = query.data;
  if (!data) {
    if (query.isError) return <LoadError title="庫存紀錄暫時無法載入" query={query} />;
    return (
      <div role="status" aria-label="載入庫存紀錄">
        <SkeletonText lines={4} />
      </div>
    );
  }
  if (data.items.length === 0) return <p className="text-sm text-ink-muted">還沒有庫存紀錄。</p>;
  return (
    <div className="flex flex-col gap-3">
      <div className="relative overflow-x-auto">
        <table className="w-full min-w-[520px] text-sm" aria-busy={query.isFetching}>
          <caption className="sr-only">{`${data.sku} 的庫存紀錄，共 ${data.total} 筆，第 ${data.page} / ${data.totalPages} 頁`}</caption>
          <thead className="text-left text-ink-muted">
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">
                時間
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                變動
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                變動後
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                原因
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                訂單
              </th>
              <th scope="col" className="py-2 font-medium">
                操作者
              </th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((e) => (
              <tr key={e.id} className="border-t border-line align-top">
                <td className="tabular py-2 pr-3 whitespace-nowrap">
                  <time dateTime={e.at}>{formatTaipeiDateTime(e.at)}</time>
                </td>
                <td
                  className={`tabular py-2 pr-3 text-right font-medium ${e.delta < 0 ? 'text-danger' : 'text-success'}`}
                >
                  {signed(e.delta)}
                </td>
                <td className="tabular py-2 pr-3 text-right">{e.stockAfter}</td>
                <td className="py-2 pr-3">{why(e)}</td>
                <td className="py-2 pr-3 whitespace-nowrap">
                  {e.orderNo ? (
                    <Link
                      to={adminPath.orderDetail(e.orderNo)}
                      className="tabular text-tea underline-offset-4 hover:underline"
                    >
                      {e.orderNo}
                    </Link>
                  ) : (
                    <span className="text-ink-muted">—</span>
                  )}
                </td>
                <td className="py-2 break-all text-ink-muted">{e.actorEmail ?? '系統'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="tabular text-sm text-ink-muted">共 {data.total} 筆</p>
        <Pagination page={data.page} totalPages={data.totalPages} onPage={setPage} />
      </div>
    </div>
  );
}
