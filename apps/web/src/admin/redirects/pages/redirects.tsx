import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AdminRedirect } from '@shop/shared/admin-settings';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { AdminPage, FilterBar } from '../../shared/admin-page.tsx';
import { DataTable, type Column } from '../../shared/data-table.tsx';
import { AddRedirectForm, DeleteRedirectDialog, EditRedirectDialog } from '../components/redirect-forms.tsx';
import { redirectsQuery } from '../queries.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { useCan } from '../../shared/use-admin-me.ts';
import { useUrlFilters } from '../../shared/use-url-filters.ts';
import { SearchBox } from '../../shared/search-box.tsx';

/** /admin/redirects: old addresses of the site and where they lead now. */
export default function RedirectsPage() {
  const canWrite = useCan('redirects.write');
  const { filters, page, setFilters, setPage } = useUrlFilters({ q: '' });
  const [editing, setEditing] = useState<AdminRedirect | null>(null);
  const [deleting, setDeleting] = useState<AdminRedirect | null>(null);
  const query = useQuery(redirectsQuery(filters, page));

  const columns: Column<AdminRedirect>[] = [
    {
      key: 'path',
      header: '原路徑',
      cell: (r) => <span className="font-mono text-[0.8125rem] whitespace-nowrap">{r.path}</span>,
    },
    {
      key: 'target',
      header: '導向到',
      cell: (r) => (
        <a
          href={r.target}
          target="_blank"
          rel="noopener"
          className={`font-mono text-[0.8125rem] whitespace-nowrap ${textLinkClass}`}
        >
          {r.target}
          <span className="sr-only">（另開新分頁）</span>
        </a>
      ),
    },
    {
      key: 'permanent',
      header: '類型',
      cell: (r) =>
        r.permanent ? (
          <Badge tone="tea" className="whitespace-nowrap">
            永久 301
          </Badge>
        ) : (
          <Badge tone="amber" className="whitespace-nowrap">
            暫時 302
          </Badge>
        ),
    },
    {
      key: 'updatedAt',
      header: '更新時間',
      cell: (r) => <span className="tabular whitespace-nowrap">{formatTaipeiDateTime(r.updatedAt)}</span>,
    },
    ...(canWrite
      ? [
          {
            key: 'actions',
            header: <span className="sr-only">操作</span>,
            align: 'right' as const,
            cell: (r: AdminRedirect) => (
              <div className="flex justify-end gap-2">
                <Button size="sm" variant="secondary" onClick={() => setEditing(r)}>
                  編輯<span className="sr-only"> {r.path}</span>
                </Button>
                <button
                  type="button"
                  className="inline-flex min-h-9 items-center rounded-md px-3 text-sm font-medium whitespace-nowrap text-danger hover:bg-danger-soft"
                  onClick={() => setDeleting(r)}
                >
                  刪除<span className="sr-only"> {r.path}</span>
                </button>
              </div>
            ),
          },
        ]
      : []),
  ];

  return (
    <AdminPage
      title="轉址"
      description="商品改名或下架後，讓舊網址自動帶顧客到新的頁面。網站上仍在使用的頁面不能設定轉址。"
    >
      {canWrite && <AddRedirectForm />}
      <FilterBar label="搜尋轉址">
        <SearchBox
          value={filters.q}
          onSearch={(q) => setFilters({ q })}
          placeholder="原路徑或目標路徑"
          className="sm:w-80"
        />
        {filters.q && (
          <Button variant="ghost" onClick={() => setFilters({ q: '' })}>
            清除搜尋
          </Button>
        )}
      </FilterBar>
      <DataTable
        caption="轉址列表"
        columns={columns}
        query={query}
        rowKey={(r) => r.path}
        empty={filters.q ? `沒有符合「${filters.q}」的轉址。` : '還沒有任何轉址。'}
        onPage={setPage}
      />
      <EditRedirectDialog redirect={editing} onClose={() => setEditing(null)} />
      <DeleteRedirectDialog redirect={deleting} onClose={() => setDeleting(null)} />
    </AdminPage>
  );
}
