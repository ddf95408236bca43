import { useId, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MaintenanceStatus, SetMaintenanceBody } from '@shop/shared/site';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorMessage } from '../../../lib/form.ts';
import { formatTaipeiDateTime, fromTaipeiInput, toTaipeiInput } from '@shop/shared/taipei-time';
import { settingsApi } from '../api.ts';
import { maintenanceQuery, settingsKeys } from '../queries.ts';

const MESSAGE_MAX = 200;

interface Draft {
  enabled: boolean;
  endsAt: string;
  message: string;
}
type DraftErrors = Partial<Record<'endsAt' | 'message', string>>;

const draftOf = (s: MaintenanceStatus): Draft => ({
  enabled: s.enabled,
  endsAt: toTaipeiInput(s.endsAt),
  message: s.message,
});

function validate(d: Draft): DraftErrors {
  const errors: DraftErrors = {};
  if (d.enabled && d.endsAt) {
    const iso = fromTaipeiInput(d.endsAt);
    if (!iso) errors.endsAt = '結束時間格式不正確';
    else if (Date.parse(iso) <= Date.now()) errors.endsAt = '結束時間必須晚於現在';
  }
  if (d.message.trim().length > MESSAGE_MAX) errors.message = `維護訊息不能超過 ${MESSAGE_MAX} 個字`;
  return errors;
}

/** An on/off switch with its visible label (role="switch", Space or Enter flips it). */
function Switch({
  checked,
  onChange,
  disabled,
  label,
  description,
  live,
}: {
  checked: boolean;
  onChange(next: boolean): void;
  disabled?: boolean;
  label: string;
  description: string;
  /** Whether the shop is closed now: the switch turns red only then, not while an opening waits for its confirmation. */
  live: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <p id={`${id}-label`} className="font-medium">
          {label}
        </p>
        <p id={`${id}-desc`} className="text-sm text-ink-muted">
          {description}
          {checked !== live && (
            <span className="mt-1 block font-medium text-[#8a5a2a]" data-testid="switch-pending">
              {checked ? '尚未開啟：按下方按鈕並確認後才會生效。' : '尚未關閉：按下方按鈕後才會恢復營業。'}
            </span>
          )}
        </p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-desc`}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={cn(
          'relative inline-flex h-8 w-14 shrink-0 items-center rounded-full border transition-colors focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-tea-dark disabled:cursor-not-allowed disabled:opacity-60',
          checked && live
            ? 'border-danger bg-danger'
            : checked
              ? 'border-tea bg-tea/60'
              : 'border-line bg-line/70',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'inline-block size-6 rounded-full bg-white shadow transition-transform',
            checked ? 'translate-x-7' : 'translate-x-1',
          )}
        />
      </button>
    </div>
  );
}

function MaintenanceForm({ status, canWrite }: { status: MaintenanceStatus; canWrite: boolean }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(status));
  const [shown, setShown] = useState(status);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [saving, setSaving] = useState(false);
  // The status changed (saved here, or refetched): show it, unless the owner is editing.
  if (status !== shown) {
    setShown(status);
    if (!saving) setDraft(draftOf(status));
  }

  const turningOn = !status.enabled && draft.enabled;
  const changed =
    draft.enabled !== status.enabled ||
    (draft.enabled &&
      (draft.endsAt !== toTaipeiInput(status.endsAt) || draft.message.trim() !== status.message));
  // Checked as it changes, as the shop's forms are: the changed fields' errors show beside them.
  const update = (patch: Partial<Draft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    const found = validate(next);
    setErrors((prev) => {
      const kept: DraftErrors = { ...prev };
      for (const key of ['endsAt', 'message'] as const) {
        if (key in patch || patch.enabled !== undefined) {
          if (found[key]) kept[key] = found[key];
          else delete kept[key];
        }
      }
      return kept;
    });
    setFormError(null);
  };

  const save = async () => {
    setSaving(true);
    setFormError(null);
    const body: SetMaintenanceBody = draft.enabled
      ? { enabled: true, endsAt: fromTaipeiInput(draft.endsAt), message: draft.message.trim() }
      : { enabled: false, endsAt: null, message: '' };
    try {
      const next = await settingsApi.setMaintenance(body);
      setConfirming(false);
      setDraft(draftOf(next));
      client.setQueryData(settingsKeys.maintenance(), next);
      if (!body.enabled && next.enabled)
        toast.error(
          '資料庫中的維護模式已關閉，但伺服器設定（MAINTENANCE_MODE）仍要求維護，請聯絡系統管理員。',
        );
      else
        toast.success(
          body.enabled
            ? status.enabled
              ? '維護資訊已更新。'
              : '維護模式已開啟，顧客會看到維護頁面。'
            : '維護模式已關閉，商店恢復營業。',
        );
    } catch (error) {
      setConfirming(false);
      const fields = error instanceof ApiError ? (error.fields ?? {}) : {};
      const known: DraftErrors = {
        ...(fields.endsAt ? { endsAt: fields.endsAt } : {}),
        ...(fields.message ? { message: fields.message } : {}),
      };
      setErrors(known);
      if (!known.endsAt && !known.message) setFormError(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validate(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (turningOn) setConfirming(true);
    else void save();
  };

  const label = turningOn
    ? '開啟維護模式…'
    : status.enabled && !draft.enabled
      ? '結束維護，恢復營業'
      : '更新維護資訊';
  return (
    <form noValidate onSubmit={submit} aria-labelledby="maintenance-title" className="flex flex-col gap-5">
      {!canWrite && <Alert tone="info">您的角色只能檢視維護狀態；如需切換，請洽店主。</Alert>}
      <Switch
        checked={draft.enabled}
        onChange={(enabled) => update({ enabled })}
        disabled={!canWrite || saving}
        live={status.enabled}
        label="維護模式"
        description="開啟後，顧客會被帶到維護頁面，無法瀏覽商品與結帳；管理員不受影響。"
      />
      {draft.enabled && (
        <div className="grid gap-4 sm:grid-cols-[minmax(0,18rem)_1fr]">
          <TextField
            label="預計結束時間（台灣時間）"
            type="datetime-local"
            value={draft.endsAt}
            onChange={(e) => update({ endsAt: e.target.value })}
            readOnly={!canWrite}
            className="read-only:bg-paper"
            hint="可留空；顧客會看到預計恢復的時間"
            error={errors.endsAt}
          />
          <TextAreaField
            label="維護訊息"
            value={draft.message}
            onChange={(e) => update({ message: e.target.value })}
            readOnly={!canWrite}
            rows={3}
            className="min-h-24 read-only:bg-paper"
            placeholder="我們正在進行系統維護，讓購物更順暢。造成不便，敬請見諒。"
            hint={`顯示在維護頁面，最多 ${MESSAGE_MAX} 個字；留空則使用預設訊息（${draft.message.trim().length}/${MESSAGE_MAX}）`}
            error={errors.message}
          />
        </div>
      )}
      {formError && <Alert tone="error">{formError}</Alert>}
      {canWrite && changed && (
        <div>
          <Button type="submit" variant={turningOn ? 'danger' : 'primary'} loading={saving && !confirming}>
            {label}
          </Button>
        </div>
      )}
      <Dialog
        open={confirming}
        onClose={() => !saving && setConfirming(false)}
        title="確定要開啟維護模式嗎？"
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirming(false)} disabled={saving}>
              取消
            </Button>
            <Button variant="danger" loading={saving} onClick={() => void save()}>
              開啟維護模式
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-3 text-sm leading-relaxed">
          <p>
            開啟後，已登入會員正在看的頁面會立即換成維護頁面；其他訪客在下一次點選、重新整理，或最遲約一分鐘內換成維護頁面。維護期間顧客無法加入購物車、結帳或查詢訂單，直到您關閉維護模式。
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md bg-paper p-3">
            <dt className="text-ink-muted">預計結束</dt>
            <dd>
              {draft.endsAt && fromTaipeiInput(draft.endsAt)
                ? formatTaipeiDateTime(fromTaipeiInput(draft.endsAt)!)
                : '未設定'}
            </dd>
            <dt className="text-ink-muted">維護訊息</dt>
            <dd className="break-words">{draft.message.trim() || '（預設訊息）'}</dd>
          </dl>
        </div>
      </Dialog>
    </form>
  );
}

/** Maintenance mode: the current state from GET /api/site/status, and the owner's switch. */
export function MaintenanceCard({ canWrite }: { canWrite: boolean }) {
  const query = useQuery(maintenanceQuery());
  const status = query.data;
  return (
    <Card className="flex flex-col gap-5">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="maintenance-title" className="text-lg font-semibold">
            維護模式
          </h2>
          <p className="mt-1 text-sm text-ink-muted">
            系統更新或盤點時暫停營業，顧客會看到維護頁面與預計恢復時間。
          </p>
        </div>
        {status && (
          <p className="flex flex-col items-end gap-1 text-sm" role="status">
            {status.enabled ? <Badge tone="danger">維護中</Badge> : <Badge tone="success">營業中</Badge>}
            {status.enabled && (
              <span className="text-ink-muted">
                {status.endsAt ? `預計 ${formatTaipeiDateTime(status.endsAt)} 結束` : '未設定結束時間'}
              </span>
            )}
          </p>
        )}
      </header>
      {query.isError && !status ? (
        <LoadError title="維護狀態暫時無法載入" query={query} />
      ) : !status ? (
        <div role="status" aria-label="載入維護狀態">
          <Skeleton className="h-16 w-full" />
        </div>
      ) : (
        <MaintenanceForm status={status} canWrite={canWrite} />
      )}
    </Card>
  );
}
