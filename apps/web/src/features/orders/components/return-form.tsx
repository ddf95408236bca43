import { useState } from 'react';
import { useForm, useWatch, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { TW_BANKS } from '@shop/shared/data/tw-banks';
import { formatTwd } from '@shop/shared/money';
import type { OrderDetail } from '@shop/shared/orders';
import {
  MAX_RETURN_PHOTOS,
  MAX_RETURN_PHOTO_BYTES,
  RETURN_REASONS,
  RefundAccount,
  type ReturnReason,
} from '@shop/shared/returns';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox, SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { errorMessage, FORM_MODE, useApiSubmit } from '../../../lib/form.ts';
import { requestReturn, uploadReturnPhoto } from '../api/orders-api.ts';
import { formatDateTime } from './order-parts.tsx';

const REASONS = Object.keys(RETURN_REASONS) as ReturnReason[];

/** The form as typed: every line of the order with a tick and a quantity; the account only when the refund is a transfer. */
function formSchema(needsAccount: boolean) {
  return z
    .object({
      lines: z.array(
        z.object({ itemId: z.string(), selected: z.boolean(), quantity: z.number().int().min(1) }),
      ),
      reason: z.string(),
      detail: z.string().trim().max(500, '說明最多 500 個字'),
      bankCode: z.string(),
      account: z.string(),
      holder: z.string(),
    })
    .superRefine((v, ctx) => {
      // One pass over everything, so every missing answer shows at once beside its field.
      if (!v.lines.some((l) => l.selected))
        ctx.addIssue({ code: 'custom', path: ['lines'], message: '請勾選要退回的商品' });
      if (!(v.reason in RETURN_REASONS))
        ctx.addIssue({ code: 'custom', path: ['reason'], message: '請選擇退貨原因' });
      if (v.reason === 'other' && !v.detail)
        ctx.addIssue({ code: 'custom', path: ['detail'], message: '選擇「其他原因」時，請說明原因' });
      if (!needsAccount) return;
      const account = RefundAccount.safeParse({ bankCode: v.bankCode, account: v.account, holder: v.holder });
      if (!account.success)
        for (const issue of account.error.issues)
          ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    });
}
type FormValues = z.infer<ReturnType<typeof formSchema>>;

interface Photo {
  readonly key: string;
  readonly preview: string;
  name: string | null;
  error: string | null;
}

/**
 * The member's return request for a delivered order: which items and how many, why, up to three
 * photos, and (ATM, cash on delivery) the account the money goes back to. Typed text stays when
 * the server refuses it; its field errors land beside the fields.
 */
export function ReturnForm({
  order,
  onDone,
  onCancel,
}: {
  order: OrderDetail;
  onDone(order: OrderDetail): void;
  onCancel(): void;
}) {
  const returnable = order.returnable!;
  const left = new Map(returnable.items.map((i) => [i.itemId, i.quantity]));
  const items = order.items.filter((i) => left.has(i.id));
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema(returnable.needsAccount)),
    mode: FORM_MODE,
    defaultValues: {
      lines: items.map((i) => ({
        itemId: i.id,
        selected: items.length === 1,
        quantity: left.get(i.id) ?? 1,
      })),
      reason: '',
      detail: '',
      bankCode: '',
      account: '',
      holder: '',
    },
  });
  const [photos, setPhotos] = useState<Photo[]>([]);
  const uploading = photos.some((p) => p.name === null && p.error === null);
  const lines = useWatch({ control: form.control, name: 'lines' });
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) =>
      requestReturn(order.orderNo, {
        items: v.lines.filter((l) => l.selected).map((l) => ({ itemId: l.itemId, quantity: l.quantity })),
        reason: v.reason as ReturnReason,
        detail: v.detail,
        photos: photos.flatMap((p) => (p.name ? [p.name] : [])),
        ...(returnable.needsAccount
          ? { refundAccount: { bankCode: v.bankCode, account: v.account, holder: v.holder } }
          : {}),
      }),
    (updated) => onDone(updated),
  );

  const addPhotos = async (files: FileList | null) => {
    if (!files) return;
    const room = MAX_RETURN_PHOTOS - photos.length;
    for (const file of [...files].slice(0, Math.max(0, room))) {
      const key = `${file.name}-${file.size}-${Math.random()}`;
      const tooBig =
        file.size > MAX_RETURN_PHOTO_BYTES ? `「${file.name}」超過 8 MB，請換一張較小的照片` : null;
      setPhotos((prev) => [...prev, { key, preview: URL.createObjectURL(file), name: null, error: tooBig }]);
      if (tooBig) continue;
      try {
        const stored = await uploadReturnPhoto(order.orderNo, file);
        setPhotos((prev) => prev.map((p) => (p.key === key ? { ...p, name: stored.name } : p)));
      } catch (error) {
        setPhotos((prev) => prev.map((p) => (p.key === key ? { ...p, error: errorMessage(error) } : p)));
      }
    }
  };
  const removePhoto = (key: string) =>
    setPhotos((prev) => {
      const gone = prev.find((p) => p.key === key);
      if (gone) URL.revokeObjectURL(gone.preview);
      return prev.filter((p) => p.key !== key);
    });

  const errors = form.formState.errors;
  const reason = useWatch({ control: form.control, name: 'reason' });
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="申請退貨">
      <p className="text-sm text-ink-muted">
        請於 <span className="tabular">{formatDateTime(returnable.until)}</span>{' '}
        前申請。客服核准後再將商品寄回，運費由我們負擔。
      </p>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">要退回的商品</legend>
        {items.map((item, index) => {
          const max = left.get(item.id) ?? 1;
          const selected = lines[index]?.selected ?? false;
          return (
            <div
              key={item.id}
              className="flex flex-wrap items-center justify-between gap-x-4 rounded-lg border border-line px-3"
            >
              <Checkbox
                label={
                  <>
                    {item.productName}（{item.variantLabel}）
                    <span className="tabular block text-ink-muted">
                      {formatTwd(item.unitPrice)} × {item.quantity}
                    </span>
                  </>
                }
                // Once asked for, the "tick an item" message goes as soon as one is ticked.
                {...form.register(`lines.${index}.selected`, {
                  onChange: () => form.formState.isSubmitted && void form.trigger('lines'),
                })}
              />
              {max > 1 && (
                <SelectField
                  label="數量"
                  containerClassName="w-28 pb-2"
                  disabled={!selected}
                  {...form.register(`lines.${index}.quantity`, { valueAsNumber: true })}
                >
                  {Array.from({ length: max }, (_, n) => (
                    <option key={n + 1} value={n + 1}>
                      {n + 1} 件
                    </option>
                  ))}
                </SelectField>
              )}
            </div>
          );
        })}
        {(errors.lines?.root?.message ?? errors.lines?.message) && (
          <p className="text-sm text-danger" role="alert">
            {errors.lines.root?.message ?? errors.lines.message}
          </p>
        )}
      </fieldset>

      <SelectField label="退貨原因" required error={errors.reason?.message} {...form.register('reason')}>
        <option value="">請選擇</option>
        {REASONS.map((r) => (
          <option key={r} value={r}>
            {RETURN_REASONS[r]}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        label="補充說明"
        required={reason === 'other'}
        hint="例如瑕疵的位置、收到時的狀況，最多 500 字"
        maxLength={500}
        error={errors.detail?.message}
        {...form.register('detail')}
      />

      <div className="flex flex-col gap-2">
        <p className="font-medium">照片（選填，最多 {MAX_RETURN_PHOTOS} 張）</p>
        <p className="text-sm text-ink-muted">
          商品有瑕疵或損壞時，附上照片能加快審核。支援 JPEG、PNG、WebP，每張 8 MB 以內。
        </p>
        <ul className="flex flex-wrap gap-3" aria-label="已選的照片">
          {photos.map((p) => (
            <li key={p.key} className="flex w-24 flex-col gap-1 text-xs">
              <img
                src={p.preview}
                alt="退貨照片預覽"
                width={96}
                height={96}
                className="size-24 rounded border border-line object-cover"
              />
              {p.error ? (
                <span className="text-danger">{p.error}</span>
              ) : p.name ? (
                <span className="text-success">已上傳</span>
              ) : (
                <span className="text-ink-muted">上傳中…</span>
              )}
              <button
                type="button"
                className="min-h-11 text-left text-ink-muted underline"
                onClick={() => removePhoto(p.key)}
              >
                移除
              </button>
            </li>
          ))}
        </ul>
        {photos.length < MAX_RETURN_PHOTOS && (
          <label className="inline-flex min-h-11 w-fit cursor-pointer items-center rounded-lg border border-line px-4 text-sm hover:border-ink-muted/50">
            選擇照片
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp"
              multiple
              className="sr-only"
              onChange={(e) => {
                void addPhotos(e.target.files);
                e.target.value = '';
              }}
            />
          </label>
        )}
      </div>

      {returnable.needsAccount && (
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-1 font-medium">退款帳戶</legend>
          <p className="text-sm text-ink-muted">這筆訂單不是刷卡付款，收到退貨後會轉帳退款到這個帳戶。</p>
          <div className="grid gap-3 sm:grid-cols-2">
            <BankFields field={(n) => form.register(n)} errors={errors} />
          </div>
        </fieldset>
      )}

      {formError && <Alert tone="error">{formError}</Alert>}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" loading={form.formState.isSubmitting} disabled={uploading}>
          {uploading ? '照片上傳中…' : '送出退貨申請'}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          取消
        </Button>
      </div>
    </form>
  );
}

type AccountErrors = Partial<Record<'bankCode' | 'account' | 'holder', { message?: string | undefined }>>;

/** Bank, account and holder: shared by the return form and the refund-account form. */
export function BankFields({
  field,
  errors,
}: {
  field: (name: 'bankCode' | 'account' | 'holder') => UseFormRegisterReturn;
  errors: AccountErrors;
}) {
  return (
    <>
      <SelectField label="銀行" required error={errors.bankCode?.message} {...field('bankCode')}>
        <option value="">請選擇銀行</option>
        {Object.entries(TW_BANKS).map(([code, name]) => (
          <option key={code} value={code}>
            {code} {name}
          </option>
        ))}
      </SelectField>
      <TextField
        label="帳號"
        required
        inputMode="numeric"
        autoComplete="off"
        hint="10–16 位數字"
        error={errors.account?.message}
        {...field('account')}
      />
      <TextField
        label="戶名"
        required
        autoComplete="name"
        error={errors.holder?.message}
        {...field('holder')}
      />
    </>
  );
}
