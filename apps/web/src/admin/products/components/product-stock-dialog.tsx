import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AdjustStockBody, type AdminVariant } from '@shop/shared/admin-products';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorMessage } from '../../../lib/form.ts';
import { productKeys } from '../queries.ts';
import { StockHistory } from './stock-history.tsx';
import { productsApi } from '../api.ts';

/**
 * The product's 「庫存紀錄」: one ledger, the same the 調整庫存 dialog shows (every change of a
 * variant's stock, sales and returns included, a page at a time), with a choice of variant when
 * the product has more than one.
 */
export function ProductLedger({
  productId,
  variants,
}: {
  productId: string;
  variants: readonly AdminVariant[];
}) {
  const [chosen, setChosen] = useState(variants[0]?.id ?? '');
  const variant = variants.find((v) => v.id === chosen) ?? variants[0];
  if (!variant) return <p className="text-sm text-ink-muted">還沒有規格，也就還沒有庫存紀錄。</p>;
  return (
    <div className="flex flex-col gap-3">
      {variants.length > 1 && (
        <div className="sm:w-72">
          <SelectField label="規格" value={variant.id} onChange={(e) => setChosen(e.target.value)}>
            {variants.map((v) => (
              <option key={v.id} value={v.id}>
                {v.sku}（庫存 {v.stock}）
              </option>
            ))}
          </SelectField>
        </div>
      )}
      <StockHistory key={variant.id} productId={productId} variantId={variant.id} />
    </div>
  );
}

function StockForm({
  productId,
  variant,
  onDone,
}: {
  productId: string;
  variant: AdminVariant;
  onDone(): void;
}) {
  const client = useQueryClient();
  const [delta, setDelta] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'delta' | 'reason', string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const toNumber = (text: string) => (/^[+-]?\d{1,7}$/.test(text.trim()) ? Number(text.trim()) : null);
  const n = toNumber(delta);
  const after = n === null ? null : variant.stock + n;

  /** The typed values checked as the shop's forms check theirs: the same rules on every change and on submit. */
  const check = (deltaText: string, reasonText: string) => {
    const value = toNumber(deltaText);
    const parsed = AdjustStockBody.safeParse({ delta: value ?? Number.NaN, reason: reasonText });
    const found: typeof errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as 'delta' | 'reason';
        found[key] ??= issue.message;
      }
    }
    if (!found.delta && value !== null && variant.stock + value < 0)
      found.delta = `庫存不足：目前只有 ${variant.stock} 件，最多只能減少 ${variant.stock} 件`;
    return { found, parsed };
  };

  const submit = async () => {
    setFormError(null);
    const { found, parsed } = check(delta, reason);
    if (!parsed.success || found.delta || found.reason) {
      setErrors(found);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const result = await productsApi.adjustStock(variant.id, parsed.data);
      toast.success(`${variant.sku} 的庫存已調整為 ${result.stock} 件。`);
      await client.invalidateQueries({ queryKey: productKeys.detail(productId) });
      void client.invalidateQueries({ queryKey: productKeys.lists() });
      onDone();
    } catch (error) {
      // The typed values stay; the server's reason shows beside its field.
      const fields = error instanceof ApiError ? error.fields : undefined;
      if (fields?.delta || fields?.reason) setErrors({ delta: fields.delta, reason: fields.reason });
      else setFormError(errorMessage(error));
      if (error instanceof ApiError && error.code === 'insufficient-stock')
        void client.invalidateQueries({ queryKey: productKeys.detail(productId) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p className="text-sm">
        {Object.entries(variant.options)
          .map(([k, v]) => `${k}：${v}`)
          .join('、') || '標準'}
        ・目前庫存 <strong className="tabular">{variant.stock}</strong> 件
      </p>
      {formError && <Alert tone="error">{formError}</Alert>}
      <TextField
        label="調整數量"
        required
        inputMode="numeric"
        autoComplete="off"
        placeholder="例如 20 或 -3"
        hint={
          after !== null && after >= 0 ? `調整後庫存：${after} 件` : '進貨填正數，盤損或退貨給廠商填負數。'
        }
        error={errors.delta}
        value={delta}
        onChange={(e) => {
          setDelta(e.target.value);
          setErrors((prev) => ({ ...prev, delta: check(e.target.value, reason).found.delta }));
        }}
      />
      <TextField
        label="調整原因"
        required
        maxLength={100}
        placeholder="例如：春茶到貨、盤點短少"
        error={errors.reason}
        value={reason}
        onChange={(e) => {
          setReason(e.target.value);
          setErrors((prev) => ({ ...prev, reason: check(delta, e.target.value).found.reason }));
        }}
        hint="100 字以內，會記錄在庫存紀錄與操作紀錄中。"
      />
      <div className="flex justify-end gap-3">
        <Button variant="ghost" onClick={onDone}>
          取消
        </Button>
        <Button type="submit" loading={saving}>
          確認調整
        </Button>
      </div>
      <section aria-labelledby="stock-history" className="flex flex-col gap-2 border-t border-line pt-4">
        <h3 id="stock-history" className="text-sm font-semibold">
          庫存紀錄
        </h3>
        <StockHistory productId={productId} variantId={variant.id} />
      </section>
    </form>
  );
}

/** 「調整庫存」 for one variant: a change (±) with a reason, and the variant's 「庫存紀錄」 (every change, paged). */
export function StockDialog({
  productId,
  variant,
  onClose,
}: {
  productId: string;
  variant: AdminVariant | null;
  onClose(): void;
}) {
  return (
    <Dialog
      open={variant !== null}
      onClose={onClose}
      title={variant ? `調整庫存：${variant.sku}` : '調整庫存'}
      className="max-w-xl"
    >
      {variant && <StockForm key={variant.id} productId={productId} variant={variant} onDone={onClose} />}
    </Dialog>
  );
}
