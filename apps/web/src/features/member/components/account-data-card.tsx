import { useState, type ReactNode } from 'react';
import { ACCOUNT_BUSY, EXPORT_FILE_PREFIX } from '@shop/shared/member-data';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Checkbox } from '../../../components/ui/field.tsx';
import { ApiError, networkError, toApiError } from '../../../lib/api-error.ts';
import { apiPost } from '../../../lib/api-client.ts';
import { errorMessage } from '../../../lib/form.ts';

/** The password confirmation the route supplies (the auth feature's dialog). */
export type ReauthSlot = (props: { open: boolean; onClose(): void; onConfirmed(): void }) => ReactNode;

const needsPassword = (error: unknown) => error instanceof ApiError && error.code === 'requires-recent-login';

/** Fetches the export as a file and hands it to the browser's downloads. */
async function downloadExport(): Promise<void> {
  let res: Response;
  try {
    res = await fetch('/api/me/data-export', { credentials: 'same-origin' });
  } catch {
    throw networkError();
  }
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => null));
  const name =
    /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ??
    `${EXPORT_FILE_PREFIX}.json`;
  const url = URL.createObjectURL(await res.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * 我的資料 (docs/product-rules.md#a-members-own-data): download everything the shop keeps about the
 * member, or delete the account. Both ask for the password first when it was not confirmed in the
 * last 5 minutes, then carry on by themselves.
 */
export function AccountDataCard({
  reauth,
  onDeleted,
}: {
  reauth: ReauthSlot;
  onDeleted(): void | Promise<void>;
}) {
  const [pending, setPending] = useState<null | (() => Promise<void>)>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [understood, setUnderstood] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<{ message: string; busy: boolean } | null>(null);

  const exportData = async () => {
    setExporting(true);
    setExportError(null);
    try {
      await downloadExport();
    } catch (error) {
      if (needsPassword(error)) setPending(() => exportData);
      else setExportError(errorMessage(error));
    } finally {
      setExporting(false);
    }
  };

  const deleteAccount = async () => {
    setDeleting(true);
    setDeleteError(null);
    try {
      await apiPost('/api/me/delete-account', { understood: true });
      setDeleteOpen(false);
      await onDeleted();
    } catch (error) {
      if (needsPassword(error)) setPending(() => deleteAccount);
      else
        setDeleteError({
          message: errorMessage(error),
          busy: error instanceof ApiError && error.code === ACCOUNT_BUSY,
        });
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Card>
      <h2 className="mb-2 text-lg font-semibold">我的資料</h2>
      <p className="mb-4 text-sm text-ink-muted">
        您可以下載山嵐茶事保存的您的資料（JSON 檔），或刪除會員帳號。為了保護您的帳號，兩者都需要先確認密碼。
      </p>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" loading={exporting} onClick={() => void exportData()}>
          下載我的資料
        </Button>
        <Button
          variant="ghost"
          className="text-danger"
          onClick={() => {
            setUnderstood(false);
            setDeleteError(null);
            setDeleteOpen(true);
          }}
        >
          刪除帳號
        </Button>
      </div>
      {exportError && (
        <Alert tone="error" className="mt-3">
          {exportError}
        </Alert>
      )}

      <Dialog
        open={deleteOpen}
        onClose={() => setDeleteOpen(false)}
        title="刪除會員帳號"
        footer={
          <>
            <Button variant="ghost" onClick={() => setDeleteOpen(false)}>
              先不要
            </Button>
            <Button
              variant="danger"
              disabled={!understood}
              loading={deleting}
              onClick={() => void deleteAccount()}
            >
              確認刪除帳號
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-3 text-sm leading-relaxed">
          <p>刪除後會移除：姓名、電子郵件、電話、生日、收件地址、購物車、收藏與貨到通知，並登出所有裝置。</p>
          <p>
            依法必須保存的訂單與發票紀錄會保留，但收件人姓名、電話與地址會移除。存在會員載具的發票之後將無法在這裡查看中獎通知。
          </p>
          <p>還有進行中的訂單、退貨或退款時，需等處理完成後才能刪除。</p>
          <Checkbox
            label="我了解刪除後無法復原"
            checked={understood}
            onChange={(e) => setUnderstood(e.target.checked)}
          />
          {deleteError && <Alert tone={deleteError.busy ? 'warning' : 'error'}>{deleteError.message}</Alert>}
        </div>
      </Dialog>

      {reauth({
        open: pending !== null,
        onClose: () => setPending(null),
        onConfirmed: () => {
          const next = pending;
          setPending(null);
          void next?.();
        },
      })}
    </Card>
  );
}
