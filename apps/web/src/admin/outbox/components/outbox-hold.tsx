import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/form.ts';
import { outboxApi } from '../api.ts';
import { outboxHoldQuery, outboxKeys } from '../queries.ts';

/**
 * A shop started on a restored backup sends nothing until the owner says so (docs/decisions/034):
 * what waits, since when, and, for the owner, the button that lets it go, after a confirmation
 * that says why it waits.
 */
export function OutboxHold({ canRelease }: { canRelease: boolean }) {
  const client = useQueryClient();
  const hold = useQuery(outboxHoldQuery());
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!hold.data?.held) return null;
  const release = async () => {
    setBusy(true);
    setError(null);
    try {
      const released = await outboxApi.release();
      await client.invalidateQueries({ queryKey: outboxKeys.all });
      setAsking(false);
      toast.success(`已恢復寄送，${released.pending} 則待送項目會陸續送出。`);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Alert
        tone="warning"
        title="寄送已暫停：這個商店是從備份還原的"
        action={
          canRelease ? (
            <Button variant="secondary" onClick={() => setAsking(true)}>
              恢復寄送
            </Button>
          ) : undefined
        }
      >
        {hold.data.since ? `從 ${formatTaipeiDateTime(hold.data.since)} 起，` : ''}
        <span className="tabular">{hold.data.pending}</span>{' '}
        則待送的通知信與金流、發票、退款作業都暫停送出，以免同一封信或同一筆退款再做一次。
        {canRelease ? '確認原本的商店已停止運作後，再恢復寄送。' : '只有店主可以恢復寄送。'}
      </Alert>
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        title="恢復寄送？"
        footer={
          <>
            <Button variant="secondary" onClick={() => setAsking(false)}>
              先不要
            </Button>
            <Button loading={busy} onClick={() => void release()}>
              確定恢復寄送
            </Button>
          </>
        }
      >
        <p className="leading-relaxed">
          恢復後，暫停中的 <span className="tabular">{hold.data.pending}</span>{' '}
          則項目會立刻送出。若備份來源的商店仍在運作，顧客可能收到重複的信，發票與退款也可能重複辦理。
        </p>
        {error && (
          <p role="alert" className="mt-3 text-sm text-danger">
            {error}
          </p>
        )}
      </Dialog>
    </>
  );
}
