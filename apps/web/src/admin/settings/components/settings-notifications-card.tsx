import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings } from '@shop/shared/admin-settings';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Checkbox } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { errorMessage } from '../../../lib/form.ts';
import { settingsApi } from '../api.ts';
import { notificationsQuery, settingsKeys } from '../queries.ts';

function NotificationsForm({ saved, canWrite }: { saved: NotificationSettings; canWrite: boolean }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState(saved);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const changed = draft.newOrderMail !== saved.newOrderMail || draft.dailyDigest !== saved.dailyDigest;
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      client.setQueryData(settingsKeys.notifications(), await settingsApi.saveNotifications(draft));
      toast.success('店家通知設定已儲存。');
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="flex flex-col gap-4">
      <Checkbox
        label="每筆新訂單寄信通知（已付款，或貨到付款成立時）"
        checked={draft.newOrderMail}
        disabled={!canWrite}
        onChange={(e) => setDraft({ ...draft, newOrderMail: e.target.checked })}
      />
      <Checkbox
        label="每天早上 8 點寄出前一天的摘要（訂單、營收、待出貨與寄送失敗）"
        checked={draft.dailyDigest}
        disabled={!canWrite}
        onChange={(e) => setDraft({ ...draft, dailyDigest: e.target.checked })}
      />
      {error && <Alert tone="error">{error}</Alert>}
      {canWrite && (
        <div>
          <Button onClick={() => void save()} disabled={!changed || saving}>
            {saving ? '儲存中…' : '儲存通知設定'}
          </Button>
        </div>
      )}
    </div>
  );
}

/** The shop's own mails to SHOP_NOTIFY_EMAIL: one per new order, and the morning digest (the owner switches them). */
export function NotificationsCard({ canWrite }: { canWrite: boolean }) {
  const query = useQuery(notificationsQuery());
  return (
    <Card>
      <h2 className="mb-1 text-lg font-semibold">店家通知信</h2>
      <p className="mb-4 text-sm text-ink-muted">寄到店家信箱的通知。顧客收到的訂單通知不受影響。</p>
      {query.data ? (
        <NotificationsForm saved={query.data} canWrite={canWrite} />
      ) : query.isError ? (
        <LoadError title="通知設定暫時無法載入" query={query} />
      ) : (
        <Skeleton className="h-20 w-full" />
      )}
    </Card>
  );
}
