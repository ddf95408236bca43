import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ROLE_NAMES, isStaffRole, type AuditEntry } from '@shop/shared/admin';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { AdminPage, FilterBar } from '../../shared/admin-page.tsx';
import { DataTable, type Column } from '../../shared/data-table.tsx';
import { useUrlFilters } from '../../shared/use-url-filters.ts';
import { auditQuery } from '../queries.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';

/** What the entity names mean, for the filter and the table. */
const ENTITIES: Record<string, string> = {
  product: '商品',
  variant: '商品規格',
  order: '訂單',
  user: '會員與帳號',
  coupon: '優惠券',
  tier: '會員等級',
  content: '網站內容',
  redirect: '轉址',
  message: '客服來信',
  setting: '網站設定',
};

const time = (iso: string) => formatTaipeiDateTime(iso, { seconds: true });

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <p className="text-sm text-ink-muted">（無）</p>;
  return (
    <pre className="max-h-80 overflow-auto rounded-md bg-paper p-3 text-xs leading-relaxed whitespace-pre-wrap break-all">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** Top-level fields whose value differs between before and after. */
function changedKeys(before: unknown, after: unknown): string[] {
  if (!before || !after || typeof before !== 'object' || typeof after !== 'object') return [];
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]),
  );
}

/** /admin/audit: every console write, who made it and what changed (owners only). */
export default function AuditPage() {
  const { filters, page, setFilters, setPage } = useUrlFilters({ entity: '', actor: '', from: '', to: '' });
  const [open, setOpen] = useState<AuditEntry | null>(null);
  const query = useQuery(auditQuery(filters, page));

  const columns: Column<AuditEntry>[] = [
    {
      key: 'at',
      header: '時間',
      cell: (r) => <span className="tabular whitespace-nowrap">{time(r.at)}</span>,
    },
    {
      key: 'actor',
      header: '操作者',
      cell: (r) => (
        <span className="break-all">
          {r.actorEmail === 'command-line' ? '命令列' : (r.actorEmail ?? '—')}
          {isStaffRole(r.actorRole) && (
            <span className="block text-xs text-ink-muted">{ROLE_NAMES[r.actorRole]}</span>
          )}
        </span>
      ),
    },
    { key: 'action', header: '動作', cell: (r) => <code className="text-xs">{r.action}</code> },
    {
      key: 'entity',
      header: '對象',
      cell: (r) => (
        <span>
          {ENTITIES[r.entity] ?? r.entity}
          {r.entityId && <span className="block max-w-48 truncate text-xs text-ink-muted">{r.entityId}</span>}
        </span>
      ),
    },
    {
      key: 'detail',
      header: <span className="sr-only">內容</span>,
      align: 'right',
      cell: (r) => (
        <Button size="sm" variant="secondary" onClick={() => setOpen(r)}>
          查看<span className="sr-only">{r.action} 的變更內容</span>
        </Button>
      ),
    },
  ];

  const changed = open ? changedKeys(open.before, open.after) : [];
  return (
    <AdminPage title="操作紀錄" description="管理後台的每一次修改都會記錄在這裡：誰、何時、改了什麼。">
      <FilterBar>
        <SelectField
          label="對象"
          value={filters.entity}
          onChange={(e) => setFilters({ entity: e.target.value })}
          containerClassName="w-40"
        >
          <option value="">全部</option>
          {Object.entries(ENTITIES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="操作者電子郵件"
          type="email"
          defaultValue={filters.actor}
          onBlur={(e) => setFilters({ actor: e.target.value.trim() })}
          onKeyDown={(e) => e.key === 'Enter' && setFilters({ actor: e.currentTarget.value.trim() })}
          containerClassName="w-64"
        />
        <TextField
          label="開始日期"
          type="date"
          value={filters.from}
          onChange={(e) => setFilters({ from: e.target.value })}
          containerClassName="w-44"
        />
        <TextField
          label="結束日期"
          type="date"
          value={filters.to}
          onChange={(e) => setFilters({ to: e.target.value })}
          containerClassName="w-44"
        />
      </FilterBar>
      <DataTable
        caption="操作紀錄"
        columns={columns}
        query={query}
        rowKey={(r) => r.id}
        empty="沒有符合條件的紀錄。"
        onPage={setPage}
      />
      <Dialog
        open={open !== null}
        onClose={() => setOpen(null)}
        title={open ? `${open.action}・${time(open.at)}` : ''}
        className="max-w-3xl"
      >
        {open && (
          <div className="flex flex-col gap-4">
            {changed.length > 0 && <p className="text-sm">變更的欄位：{changed.join('、')}</p>}
            <div className="grid gap-4 md:grid-cols-2">
              <section>
                <h3 className="mb-1 text-sm font-medium">修改前</h3>
                <Json value={open.before} />
              </section>
              <section>
                <h3 className="mb-1 text-sm font-medium">修改後</h3>
                <Json value={open.after} />
              </section>
            </div>
          </div>
        )}
      </Dialog>
    </AdminPage>
  );
}
