import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  OUTBOX_KIND_LABELS,
  OUTBOX_STATUS_LABELS,
  type OutboxListQuery,
  type OutboxRow,
} from '@shop/shared/admin-outbox';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/form.ts';
import { AdminPage, FilterBar } from '../../shared/admin-page.tsx';
import { DataTable, type Column } from '../../shared/data-table.tsx';
import { useCan } from '../../shared/use-admin-me.ts';
import { useUrlFilters } from '../../shared/use-url-filters.ts';
import { outboxApi } from '../api.ts';
import { outboxKeys, outboxQuery } from '../queries.ts';
import { OutboxHold } from '../components/outbox-hold.tsx';

const DEFAULTS = { status: 'attention' };
const STATUSES = ['attention', 'failed', 'pending', 'sent'] as const;
const TONES: Record<OutboxRow['status'], BadgeTone> = { pending: 'amber', failed: 'danger', sent: 'success' };

function apiQuery(f: typeof DEFAULTS, page: number): OutboxListQuery {
  const status = (STATUSES as readonly string[]).includes(f.status)
    ? (f.status as OutboxListQuery['status'])
    : 'attention';
  return { status, page };
}

/** /admin/outbox: mails (and gateway calls) that wait to be sent or failed, with the error and "send again". */
export default function OutboxPage() {
  const canWrite = useCan('outbox.write');
  const canRelease = useCan('settings.write');
  const client = useQueryClient();
  const { filters, page, setFilters, setPage } = useUrlFilters(DEFAULTS);
  const query = useQuery(outboxQuery(apiQuery(filters, page)));
  const [busy, setBusy] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<number, string>>({});

  const retry = async (row: OutboxRow) => {
    setBusy(row.id);
    setErrors(({ [row.id]: _gone, ...rest }) => rest);
    try {
      await outboxApi.retry(row.id);
      await client.invalidateQueries({ queryKey: outboxKeys.all });
      toast.success('已重新排入寄送，稍後會自動送出。');
    } catch (e) {
      setErrors((prev) => ({ ...prev, [row.id]: errorMessage(e) }));
    } finally {
      setBusy(null);
    }
  };

  const columns: Column<OutboxRow>[] = [
    {
      key: 'status',
      header: '狀態',
      cell: (r) => (
        <Badge tone={TONES[r.status]} className="whitespace-nowrap">
          {OUTBOX_STATUS_LABELS[r.status]}
        </Badge>
      ),
    },
    {
      key: 'what',
      header: '內容',
      className: 'min-w-64',
      cell: (r) => (
        <>
          <span className="block text-xs text-ink-muted">{OUTBOX_KIND_LABELS[r.kind] ?? r.kind}</span>
          <span className="block break-all">{r.summary || '—'}</span>
        </>
      ),
    },
    {
      key: 'when',
      header: '時間',
      cell: (r) => (
        <span className="tabular block text-xs whitespace-nowrap text-ink-muted">
          建立 {formatTaipeiDateTime(r.createdAt)}
          {r.sentAt && <span className="block">送出 {formatTaipeiDateTime(r.sentAt)}</span>}
          {r.nextAttemptAt && r.attempts > 0 && (
            <span className="block">下次嘗試 {formatTaipeiDateTime(r.nextAttemptAt)}</span>
          )}
        </span>
      ),
    },
    {
      key: 'error',
      header: '嘗試與錯誤',
      className: 'min-w-56',
      cell: (r) => (
        <>
          <span className="tabular block text-xs text-ink-muted">已嘗試 {r.attempts} 次</span>
          {r.lastError && r.status !== 'sent' && (
            <span className="block text-sm break-all text-danger">{r.lastError}</span>
          )}
        </>
      ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">動作</span>,
      cell: (r) =>
        canWrite && r.status !== 'sent' ? (
          <div className="flex flex-col items-start gap-1">
            <Button
              size="sm"
              variant="secondary"
              disabled={busy === r.id}
              onClick={() => void retry(r)}
              aria-label={`重新寄送：${r.summary}`}
            >
              {busy === r.id ? '排入中…' : '重新寄送'}
            </Button>
            {errors[r.id] && (
              <span role="alert" className="text-xs text-danger">
                {errors[r.id]}
              </span>
            )}
          </div>
        ) : null,
    },
  ];

  const counts = query.data?.counts;
  const empty = filters.status === 'sent' ? '還沒有送出的紀錄。' : '沒有待送或失敗的項目，一切都已送出。';
  return (
    <AdminPage
      title="寄送狀態"
      description="訂單通知信、客服來信轉寄等背景寄送的項目。寄送失敗會自動重試（1 秒起，每次延長 1.5 倍，最長 60 秒）一天；之後停在「失敗」，等您確認後重新寄送。"
    >
      <OutboxHold canRelease={canRelease} />
      {counts && (
        <p className="text-sm text-ink-muted" aria-live="polite">
          待送出 <span className="tabular font-medium text-ink">{counts.pending}</span> 則，失敗{' '}
          <span
            className={counts.failed > 0 ? 'tabular font-medium text-danger' : 'tabular font-medium text-ink'}
          >
            {counts.failed}
          </span>{' '}
          則
        </p>
      )}
      <FilterBar>
        <SelectField
          label="狀態"
          value={filters.status}
          onChange={(e) => setFilters({ status: e.target.value })}
          containerClassName="w-56"
        >
          <option value="attention">待處理（失敗與待送出）</option>
          <option value="failed">失敗</option>
          <option value="pending">待送出</option>
          <option value="sent">已送出</option>
        </SelectField>
      </FilterBar>
      <DataTable
        caption="寄送項目列表"
        columns={columns}
        query={query}
        rowKey={(r) => String(r.id)}
        empty={empty}
        onPage={setPage}
      />
    </AdminPage>
  );
}
