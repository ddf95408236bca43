import { useId } from 'react';
import { useFieldArray, useWatch, type Path, type UseFormReturn } from 'react-hook-form';
import { MAX_VARIANTS, type AdminVariant } from '@shop/shared/admin-products';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import {
  CellInput,
  emptyVariant,
  isBlankNewVariant,
  offeredValues,
  optionCombinations,
  type ProductFormValues,
} from './product-form.tsx';
import { StockBadge } from './product-badges.tsx';

/**
 * The variants table of the editor: SKU, a choice for each of the product's options, price,
 * compare-at price, stock and low-stock threshold per row; rows can be added and removed (a variant
 * with orders can only be taken off sale), or made from every combination of the options. Stock of
 * a saved variant is shown live and changed through 「調整庫存」. A check that spans fields (原價
 * above 售價, SKUs and option choices that must differ between rows) runs again on every field it
 * spans, so a message goes as soon as any of them fixes it.
 */
export function ProductVariants({
  form,
  canWrite,
  saved,
  onAdjust,
}: {
  form: UseFormReturn<ProductFormValues>;
  canWrite: boolean;
  /** The saved variants as the server has them now (live stock). */
  saved: readonly AdminVariant[];
  onAdjust(variant: AdminVariant): void;
}) {
  const uid = useId();
  const { fields, append, remove } = useFieldArray({
    control: form.control,
    name: 'variants',
    keyName: 'key',
  });
  const options = useWatch({ control: form.control, name: 'options' });
  const errors = form.formState.errors.variants;
  const listError = errors?.root?.message ?? errors?.message;
  const { register } = form;
  const offered = offeredValues(options);
  const combinations = optionCombinations(offered);
  const others = (i: number, field: 'sku' | 'options') =>
    fields.flatMap((_, j) => (j === i ? [] : [`variants.${j}.${field}` as Path<ProductFormValues>]));

  /** Rows for the combinations no row has yet: blank new rows take them first, then new rows. */
  const addCombinations = () => {
    const rows = form.getValues('variants');
    const have = new Set(rows.map((v) => JSON.stringify(v.options.map((o) => o.trim()))));
    const missing = combinations.filter((c) => !have.has(JSON.stringify(c)));
    const blanks = rows.flatMap((v, i) => (isBlankNewVariant(v) ? [i] : []));
    missing.forEach((combo, n) => {
      const blank = blanks[n];
      if (blank !== undefined) form.setValue(`variants.${blank}.options`, combo, { shouldDirty: true });
    });
    const rest = missing.slice(blanks.length, blanks.length + Math.max(0, MAX_VARIANTS - rows.length));
    if (rest.length)
      append(
        rest.map((combo) => ({ ...emptyVariant(), options: combo })),
        { shouldFocus: false },
      );
  };

  return (
    <div className="flex flex-col gap-3">
      {listError && (
        <p
          role="alert"
          className="rounded-md border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger"
        >
          {listError}
        </p>
      )}
      <div className="relative overflow-x-auto rounded-lg border border-line">
        <table className="w-full min-w-[840px] text-sm">
          <caption className="sr-only">商品規格，共 {fields.length} 個</caption>
          <thead className="bg-paper text-left whitespace-nowrap text-ink-muted">
            <tr>
              <th scope="col" className="w-48 px-3 py-2.5 font-medium">
                SKU
              </th>
              {options.map((o, k) => (
                <th key={k} scope="col" className="px-3 py-2.5 font-medium">
                  {o.name.trim() || `選項 ${k + 1}`}
                </th>
              ))}
              <th scope="col" className="w-24 px-3 py-2.5 font-medium">
                售價
              </th>
              <th scope="col" className="w-24 px-3 py-2.5 font-medium">
                原價
              </th>
              {/* Saved variants show their stock with 「調整庫存」; new ones a starting number. */}
              <th scope="col" className={cn('px-3 py-2.5 font-medium', saved.length ? 'w-44' : 'w-24')}>
                庫存
              </th>
              <th scope="col" className="w-24 px-3 py-2.5 font-medium">
                低庫存門檻
              </th>
              <th scope="col" className="w-14 px-2 py-2.5 text-center font-medium">
                販售
              </th>
              {canWrite && (
                <th scope="col" className="w-24 px-2 py-2.5 font-medium">
                  <span className="sr-only">操作</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {fields.map((field, i) => {
              const e = errors?.[i];
              const live = field.id ? saved.find((v) => v.id === field.id) : undefined;
              const n = i + 1;
              const cell = (name: string) => `${uid}-${i}-${name}`;
              return (
                <tr key={field.key} className="border-t border-line align-top">
                  <td className="px-3 py-2.5">
                    <CellInput
                      id={cell('sku')}
                      label={`第 ${n} 個規格的 SKU`}
                      error={e?.sku?.message}
                      autoComplete="off"
                      spellCheck={false}
                      placeholder="DD-75G"
                      maxLength={40}
                      className="min-w-40 font-mono text-[0.8125rem]!"
                      {...register(`variants.${i}.sku`, { deps: others(i, 'sku') })}
                    />
                  </td>
                  {options.map((o, k) => {
                    const name = o.name.trim() || `選項 ${k + 1}`;
                    return (
                      <td key={k} className="px-3 py-2.5">
                        <select
                          // A new list of values makes a new element, which shows the form's value
                          // (a value just renamed in the options is in the new list only).
                          key={offered[k]?.join('\u0000')}
                          id={cell(`option-${k}`)}
                          aria-label={`第 ${n} 個規格的${name}`}
                          aria-invalid={e?.options?.message ? true : undefined}
                          aria-describedby={e?.options?.message ? cell('options-error') : undefined}
                          className={cn(
                            'block min-h-10 w-full min-w-24 rounded-md border bg-surface px-2 text-[0.9375rem] text-ink focus-visible:outline-3 focus-visible:outline-tea-dark',
                            e?.options?.message ? 'border-danger' : 'border-line',
                          )}
                          {...register(`variants.${i}.options.${k}`, { deps: others(i, 'options') })}
                        >
                          <option value="">請選擇</option>
                          {offered[k]?.map((value) => (
                            <option key={value} value={value}>
                              {value}
                            </option>
                          ))}
                        </select>
                        {k === options.length - 1 && e?.options?.message && (
                          <p
                            id={cell('options-error')}
                            role="alert"
                            className="mt-1 text-xs leading-snug text-danger"
                          >
                            {e.options.message}
                          </p>
                        )}
                      </td>
                    );
                  })}
                  <td className="px-3 py-2.5">
                    <CellInput
                      id={cell('price')}
                      label={`第 ${n} 個規格的售價`}
                      error={e?.price?.message}
                      inputMode="numeric"
                      className="tabular min-w-[4.5rem]"
                      {...register(`variants.${i}.price`, { deps: [`variants.${i}.compareAtPrice`] })}
                    />
                  </td>
                  <td className="px-3 py-2.5">
                    <CellInput
                      id={cell('compare')}
                      label={`第 ${n} 個規格的原價（選填）`}
                      error={e?.compareAtPrice?.message}
                      inputMode="numeric"
                      placeholder="選填"
                      className="tabular min-w-[4.5rem]"
                      {...register(`variants.${i}.compareAtPrice`, { deps: [`variants.${i}.price`] })}
                    />
                  </td>
                  <td className="px-3 py-2.5">
                    {live ? (
                      <div className="flex min-h-10 flex-wrap items-center gap-x-3 gap-y-1.5">
                        <span className="flex items-center gap-2">
                          <span className="tabular text-base font-medium">{live.stock}</span>
                          <StockBadge stock={live.stock} low={live.stock <= live.lowStockThreshold} />
                        </span>
                        {live.restockWaiting > 0 && (
                          <span className="text-xs text-ink-muted" data-testid="restock-waiting">
                            {live.restockWaiting} 人等待貨到通知
                          </span>
                        )}
                        {canWrite && (
                          <Button
                            size="sm"
                            variant="secondary"
                            onClick={() => onAdjust(live)}
                            aria-label={`調整 ${live.sku} 的庫存`}
                          >
                            調整庫存
                          </Button>
                        )}
                      </div>
                    ) : (
                      <CellInput
                        id={cell('stock')}
                        label={`第 ${n} 個規格的初始庫存`}
                        error={e?.stock?.message}
                        inputMode="numeric"
                        className="tabular min-w-[4.5rem]"
                        {...register(`variants.${i}.stock`)}
                      />
                    )}
                  </td>
                  <td className="px-3 py-2.5">
                    <CellInput
                      id={cell('threshold')}
                      label={`第 ${n} 個規格的低庫存門檻`}
                      error={e?.lowStockThreshold?.message}
                      inputMode="numeric"
                      className="tabular"
                      {...register(`variants.${i}.lowStockThreshold`)}
                    />
                  </td>
                  <td className="px-2 py-2.5 text-center">
                    <input
                      type="checkbox"
                      aria-label={`第 ${n} 個規格販售中`}
                      className="mt-2.5 size-5 cursor-pointer accent-tea"
                      {...register(`variants.${i}.active`)}
                    />
                  </td>
                  {canWrite && (
                    <td className="px-2 py-2.5">
                      {field.ordered ? (
                        <p className="pt-2 text-xs leading-snug text-ink-muted">已有訂單，只能取消「販售」</p>
                      ) : (
                        <Button
                          size="sm"
                          variant="ghost"
                          className="text-danger!"
                          disabled={fields.length <= 1}
                          onClick={() => remove(i)}
                          aria-label={`移除第 ${n} 個規格`}
                        >
                          移除
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-ink-muted">原價留白表示沒有特價。</p>
        {canWrite && (
          <div className="flex flex-wrap gap-2">
            {combinations.length > 1 && (
              <Button size="sm" variant="secondary" onClick={addCombinations}>
                依選項建立所有組合
              </Button>
            )}
            <Button
              size="sm"
              variant="secondary"
              onClick={() =>
                append(emptyVariant(options.length), { focusName: `variants.${fields.length}.sku` })
              }
            >
              ＋ 新增規格
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
