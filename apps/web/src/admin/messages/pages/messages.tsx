import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { AdminMessageRow } from '@shop/shared/admin-settings';
import { CONTACT_SUBJECTS } from '@shop/shared/site';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { AdminPage, FilterBar } from '../../shared/admin-page.tsx';
import { DataTable, type Column } from '../../shared/data-table.tsx';
import { HandledBadge, MessageDialog } from '../components/message-detail.tsx';
import type { MessageListQuery } from '../api.ts';
import { messagesQuery } from '../queries.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { useCan } from '../../shared/use-admin-me.ts';
import { useUrlFilters } from '../../shared/use-url-filters.ts';
import { SearchBox } from '../../shared/search-box.tsx';

const DEFAULTS = { handled: '', subject: '', q: '' };
const REF = /^C\d{13,20}$/;

/** The URL's filter strings as the API's query; with no state filter the unhandled ones come first. */
function apiQuery(f: typeof DEFAULTS, page: number): MessageListQuery {
  return {
    ...(f.handled === 'yes' || f.handled === 'no' ? { handled: f.handled } : {}),
    ...((CONTACT_SUBJECTS as readonly string[]).includes(f.subject) ? { subject: f.subject } : {}),
    q: f.q.trim(),
    sort: f.handled ? 'newest' : 'unhandled-first',
    page,
  };
}

/** /admin/messages: what shoppers sent through /contact, unhandled first; read, reply and mark handled. */
export default function MessagesPage() {
  const canWrite = useCan('messages.write');
  const { filters, page, setFilters, setPage } = useUrlFilters(DEFAULTS);
  const [params, setParams] = useSearchParams();
  const openRef = params.get('open');
  const open = openRef && REF.test(openRef) ? openRef : null;
  // The open message is in the URL too, so a reload or a shared link shows it; the list keeps its page.
  const setOpen = (ref: string | null) =>
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      if (ref) p.set('open', ref);
      else p.delete('open');
      return p;
    });
  const query = useQuery(messagesQuery(apiQuery(filters, page)));

  const columns: Column<AdminMessageRow>[] = [
    { key: 'state', header: '狀態', cell: (r) => <HandledBadge handledAt={r.handledAt} /> },
    {
      key: 'ref',
      header: '單號與時間',
      cell: (r) => (
        <>
          <button
            type="button"
            onClick={() => setOpen(r.referenceNo)}
            className="tabular font-medium whitespace-nowrap text-tea underline-offset-4 hover:underline"
          >
            {r.referenceNo}
            <span className="sr-only">（開啟來信）</span>
          </button>
          <span className="tabular block text-xs whitespace-nowrap text-ink-muted">
            {formatTaipeiDateTime(r.createdAt)}
          </span>
        </>
      ),
    },
    {
      key: 'from',
      header: '來信者',
      cell: (r) => (
        <>
          <span className="block whitespace-nowrap">{r.name}</span>
          <span className="block text-xs whitespace-nowrap text-ink-muted">{r.email}</span>
        </>
      ),
    },
    { key: 'subject', header: '類別', cell: (r) => <span className="whitespace-nowrap">{r.subject}</span> },
    {
      key: 'excerpt',
      header: '內容',
      className: 'min-w-64',
      cell: (r) => <span className="line-clamp-2 text-ink-muted">{r.excerpt}</span>,
    },
  ];

  const filtered = Object.entries(filters).some(([k, v]) => v !== DEFAULTS[k as keyof typeof DEFAULTS]);
  return (
    <AdminPage
      title="客服來信"
      description="顧客從「聯絡我們」送出的訊息。未處理的排在最前面；回覆後請標示為已處理。"
    >
      <FilterBar>
        <SelectField
          label="狀態"
          value={filters.handled}
          onChange={(e) => setFilters({ handled: e.target.value })}
          containerClassName="w-56"
        >
          <option value="">全部（未處理優先）</option>
          <option value="no">未處理</option>
          <option value="yes">已處理</option>
        </SelectField>
        <SelectField
          label="類別"
          value={filters.subject}
          onChange={(e) => setFilters({ subject: e.target.value })}
          containerClassName="w-44"
        >
          <option value="">全部類別</option>
          {CONTACT_SUBJECTS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
        <SearchBox
          value={filters.q}
          onSearch={(q) => setFilters({ q })}
          placeholder="姓名、電子郵件、單號或內容"
        />
        {filtered && (
          <Button variant="ghost" onClick={() => setFilters(DEFAULTS)}>
            清除條件
          </Button>
        )}
      </FilterBar>
      <DataTable
        caption="客服來信列表"
        columns={columns}
        query={query}
        rowKey={(r) => r.referenceNo}
        empty={filtered ? '沒有符合條件的來信。' : '還沒有顧客來信。'}
        onPage={setPage}
      />
      <MessageDialog referenceNo={open} onClose={() => setOpen(null)} canWrite={canWrite} />
    </AdminPage>
  );
}
