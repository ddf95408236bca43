import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { adminPath } from '@shop/shared/admin-routes';
import {
  PRODUCT_STATUSES,
  PRODUCT_STATUS_LABELS,
  STOCK_FILTERS,
  STOCK_FILTER_LABELS,
  type AdminProductRow,
} from '@shop/shared/admin-products';
import { formatTwdRange } from '@shop/shared/money';
import { Button, ButtonLink, buttonClass } from '../../../components/ui/button.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { categoriesQueryOptions } from '../../../features/catalog/api/catalog-api.ts';
import { AdminPage, FilterBar } from '../../shared/admin-page.tsx';
import { DataTable, type Column } from '../../shared/data-table.tsx';
import { ImportDialog } from '../components/product-import-dialog.tsx';
import { productListQuery } from '../queries.ts';
import { useCan } from '../../shared/use-admin-me.ts';
import { useUrlFilters } from '../../shared/use-url-filters.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { ProductStatusBadge, StockBadge } from '../components/product-badges.tsx';
import { productsApi } from '../api.ts';

const DEFAULTS = { q: '', status: '', category: '', stock: '' };

const editPath = (id: string) => adminPath.productEdit(id);

const COLUMNS: readonly Column<AdminProductRow>[] = [
  {
    key: 'name',
    header: '商品',
    cell: (p) => (
      <div className="flex min-w-52 items-center gap-3">
        {p.coverUrl ? (
          <img
            src={p.coverUrl}
            alt=""
            width={40}
            height={50}
            loading="lazy"
            className="aspect-[4/5] w-10 shrink-0 rounded border border-line bg-paper object-cover"
          />
        ) : (
          <span
            aria-hidden="true"
            className="flex aspect-[4/5] w-10 shrink-0 items-center justify-center rounded border border-dashed border-line text-xs text-ink-muted"
          >
            無圖
          </span>
        )}
        <span className="flex min-w-0 flex-col">
          <Link to={editPath(p.id)} className="font-medium text-tea underline-offset-4 hover:underline">
            {p.name}
          </Link>
          <span className="text-xs break-all text-ink-muted">
            {p.slug}・<span className="whitespace-nowrap">{p.variantCount} 個規格</span>
          </span>
        </span>
      </div>
    ),
  },
  { key: 'status', header: '狀態', cell: (p) => <ProductStatusBadge status={p.status} /> },
  {
    key: 'category',
    header: '分類',
    cell: (p) => <span className="whitespace-nowrap">{p.category.name}</span>,
  },
  {
    key: 'price',
    header: '價格',
    align: 'right',
    cell: (p) => (
      <span className="tabular whitespace-nowrap">
        {p.priceMin !== null && p.priceMax !== null ? formatTwdRange(p.priceMin, p.priceMax) : '—'}
      </span>
    ),
  },
  {
    key: 'stock',
    header: '庫存',
    align: 'right',
    cell: (p) => (
      <span className="flex flex-col items-end gap-1">
        <span className="tabular">{p.totalStock}</span>
        <StockBadge stock={p.totalStock} low={p.lowStock} />
      </span>
    ),
  },
  {
    key: 'updated',
    header: '最後更新',
    cell: (p) => {
      const [date, time] = formatTaipeiDateTime(p.updatedAt).split(' ');
      return (
        <time dateTime={p.updatedAt} className="tabular flex flex-col whitespace-nowrap text-ink-muted">
          <span>{date}</span>
          <span className="text-xs">{time}</span>
        </time>
      );
    },
  },
];

/** /admin/products: the product table with search and filters in the URL, CSV export and import. */
export default function ProductsPage() {
  const canWrite = useCan('products.write');
  const { filters, page, setFilters, setPage } = useUrlFilters(DEFAULTS);
  const [search, setSearch] = useState(filters.q);
  const [importing, setImporting] = useState(false);
  const categories = useQuery(categoriesQueryOptions());
  const query = useQuery(productListQuery({ ...filters, page }));

  // Typing searches after a short pause; the URL (and Back) follows.
  useEffect(() => {
    if (search.trim() === filters.q) return;
    const timer = setTimeout(() => setFilters({ q: search.trim() }), 300);
    return () => clearTimeout(timer);
  }, [search, filters.q, setFilters]);
  // A search changed by Back or a link updates the box (adjusted while rendering, not in an effect).
  const [seenQ, setSeenQ] = useState(filters.q);
  if (seenQ !== filters.q) {
    setSeenQ(filters.q);
    if (search.trim() !== filters.q) setSearch(filters.q);
  }

  const filtered = Object.values(filters).some(Boolean);

  return (
    <AdminPage
      title="商品"
      description={
        query.data ? `共 ${query.data.total} 項商品${filtered ? '符合條件' : ''}` : '商品、規格與庫存'
      }
      actions={
        <>
          <a href={productsApi.exportUrl} download className={buttonClass('secondary')}>
            匯出 CSV
          </a>
          {canWrite && (
            <>
              <Button variant="secondary" onClick={() => setImporting(true)}>
                匯入 CSV
              </Button>
              <ButtonLink to={adminPath.productNew()}>新增商品</ButtonLink>
            </>
          )}
        </>
      }
    >
      <FilterBar label="篩選商品">
        <TextField
          containerClassName="w-full sm:w-72"
          type="search"
          label="搜尋"
          placeholder="商品名稱、網址代碼或 SKU"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') setFilters({ q: search.trim() });
          }}
        />
        <div className="grid w-full grid-cols-3 gap-3 sm:contents">
          <SelectField
            label="狀態"
            value={filters.status}
            onChange={(e) => setFilters({ status: e.target.value })}
            className="sm:w-36"
          >
            <option value="">全部</option>
            {PRODUCT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {PRODUCT_STATUS_LABELS[s]}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="分類"
            value={filters.category}
            onChange={(e) => setFilters({ category: e.target.value })}
            className="sm:w-40"
          >
            <option value="">全部</option>
            {categories.data?.categories.map((c) => [
              <option key={c.slug} value={c.slug}>
                {c.name}
              </option>,
              ...c.children.map((k) => (
                <option key={k.slug} value={k.slug}>
                  {`\u3000${k.name}`}
                </option>
              )),
            ])}
          </SelectField>
          <SelectField
            label="庫存"
            value={filters.stock}
            onChange={(e) => setFilters({ stock: e.target.value })}
            className="sm:w-48"
          >
            <option value="">全部</option>
            {STOCK_FILTERS.map((s) => (
              <option key={s} value={s}>
                {STOCK_FILTER_LABELS[s]}
              </option>
            ))}
          </SelectField>
        </div>
        {filtered && (
          <Button
            variant="ghost"
            onClick={() => {
              setSearch('');
              setFilters({ q: '', status: '', category: '', stock: '' });
            }}
          >
            清除篩選
          </Button>
        )}
      </FilterBar>
      <DataTable
        caption="商品列表"
        columns={COLUMNS}
        query={query}
        rowKey={(p) => p.id}
        onPage={setPage}
        empty={
          filtered ? (
            '沒有符合條件的商品，請調整搜尋或篩選條件。'
          ) : (
            <span className="flex flex-col items-center gap-3">
              還沒有任何商品。
              {canWrite && (
                <Link to={adminPath.productNew()} className="text-tea underline underline-offset-4">
                  新增第一項商品
                </Link>
              )}
            </span>
          )
        }
      />
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
    </AdminPage>
  );
}
