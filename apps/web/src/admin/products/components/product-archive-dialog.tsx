import { useEffect, useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatTwdRange } from '@shop/shared/money';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorMessage } from '../../../lib/form.ts';
import { productListQuery } from '../queries.ts';
import type { ArchiveProductResponse } from '@shop/shared/admin-products';
import { productsApi } from '../api.ts';

function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return current;
}

function ArchiveForm({
  product,
  blocked,
  onDone,
  onCancel,
}: {
  product: { id: string; slug: string; name: string };
  blocked: string | null;
  onDone(result: ArchiveProductResponse): void;
  onCancel(): void;
}) {
  const uid = useId();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 250);
  const [choice, setChoice] = useState<{ id: string; slug: string; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const results = useQuery(
    productListQuery({ q, status: 'active', category: '', stock: '', page: 1, pageSize: 8 }),
  );
  const options = (results.data?.items ?? []).filter((p) => p.id !== product.id);

  const submit = async () => {
    setError(null);
    setSaving(true);
    try {
      onDone(await productsApi.archive(product.id, choice?.id ?? null));
    } catch (e) {
      setError(
        e instanceof ApiError && e.fields?.replacementProductId
          ? e.fields.replacementProductId
          : errorMessage(e),
      );
      setSaving(false);
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm leading-relaxed">
        下架後，「{product.name}」不會再出現在商城，也無法加入購物車；已成立的訂單不受影響。原本的商品網址{' '}
        <code className="rounded bg-paper px-1">/mall/{product.slug}</code>{' '}
        會自動轉到您選擇的替代商品；不指定時轉到商城首頁。
      </p>
      {blocked && <Alert tone="warning">{blocked}</Alert>}
      <fieldset className="flex flex-col gap-3" disabled={Boolean(blocked)}>
        <legend className="mb-2 text-sm font-medium">替代商品（選填）</legend>
        <TextField
          label="搜尋上架中的商品"
          type="search"
          placeholder="商品名稱、網址代碼或 SKU"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          autoComplete="off"
        />
        <div
          role="radiogroup"
          aria-label="選擇替代商品"
          aria-busy={results.isFetching}
          className="flex max-h-64 flex-col overflow-y-auto rounded-lg border border-line"
        >
          <label className="flex min-h-11 cursor-pointer items-center gap-3 border-b border-line px-3 py-2 text-sm hover:bg-paper">
            <input
              type="radio"
              name={`${uid}-replacement`}
              className="size-4 accent-tea"
              checked={choice === null}
              onChange={() => setChoice(null)}
            />
            <span>不指定，轉到商城首頁</span>
          </label>
          {choice && !options.some((o) => o.id === choice.id) && (
            <label className="flex min-h-11 cursor-pointer items-center gap-3 border-b border-line px-3 py-2 text-sm hover:bg-paper">
              <input
                type="radio"
                name={`${uid}-replacement`}
                className="size-4 accent-tea"
                checked
                onChange={() => undefined}
              />
              <span>{choice.name}</span>
            </label>
          )}
          {options.map((o) => (
            <label
              key={o.id}
              className="flex min-h-11 cursor-pointer items-center gap-3 border-b border-line px-3 py-2 text-sm last:border-b-0 hover:bg-paper"
            >
              <input
                type="radio"
                name={`${uid}-replacement`}
                className="size-4 accent-tea"
                checked={choice?.id === o.id}
                onChange={() => setChoice({ id: o.id, slug: o.slug, name: o.name })}
              />
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="truncate">{o.name}</span>
                <span className="tabular text-xs text-ink-muted">
                  /mall/{o.slug}
                  {o.priceMin !== null &&
                    o.priceMax !== null &&
                    `・${formatTwdRange(o.priceMin, o.priceMax)}`}
                </span>
              </span>
            </label>
          ))}
          {results.isError && <p className="px-3 py-2 text-sm text-danger">{errorMessage(results.error)}</p>}
          {results.data && options.length === 0 && (
            <p className="px-3 py-3 text-sm text-ink-muted">找不到符合的上架商品。</p>
          )}
        </div>
      </fieldset>
      <p className="rounded-md bg-paper px-3 py-2 text-sm" aria-live="polite">
        下架後 <code>/mall/{product.slug}</code> 會轉到：
        <strong>{choice ? `「${choice.name}」（/mall/${choice.slug}）` : '商城首頁（/mall）'}</strong>
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      <div className="flex justify-end gap-3">
        <Button variant="ghost" onClick={onCancel}>
          取消
        </Button>
        <Button variant="danger" loading={saving} disabled={Boolean(blocked)} onClick={() => void submit()}>
          確認下架
        </Button>
      </div>
    </div>
  );
}

/** 「下架」: takes a product off sale with an optional replacement its old address redirects to. */
export function ArchiveDialog({
  open,
  product,
  blocked,
  onClose,
  onArchived,
}: {
  open: boolean;
  product: { id: string; slug: string; name: string };
  /** Why archiving must wait (unsaved edits), or null. */
  blocked: string | null;
  onClose(): void;
  onArchived(result: ArchiveProductResponse): void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={`下架「${product.name}」`} className="max-w-xl">
      {open && <ArchiveForm product={product} blocked={blocked} onDone={onArchived} onCancel={onClose} />}
    </Dialog>
  );
}
