import { useId } from 'react';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import type { AdminVariant } from '@shop/shared/admin-products';
import { Button } from '../../../components/ui/button.tsx';
import { CellInput, emptyVariant, type ProductFormValues } from './product-form.tsx';
import { StockBadge } from './product-badges.tsx';

/**
 * The variants table of the editor: SKU, options, price, compare-at price, stock and low-stock
 * threshold per row; rows can be added and removed (a variant with orders can only be taken off
 * sale). Stock of a saved variant is shown live and changed through 「調整庫存」.
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
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'variants', keyName: 'key' });
  const errors = form.formState.errors.variants;
  const listError = errors?.root?.message ?? errors?.message;
  const { register } = form;

  return (
    <div className="flex flex-col gap-3">
      {listError && (
        <p role="alert" className="rounded-md border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger">
          {listError}
        </p>
      )}
      <div className="relative overflow-x-auto rounded-lg border border-line">
        <table className="w-full min-w-[880px] text-sm">
          <caption className="sr-only">商品規格，共 {fields.length} 個</caption>
          <thead className="bg-paper text-left whitespace-nowrap text-ink-muted">
            <tr>
              <th scope="col" className="w-32 px-3 py-2.5 font-medium">
                SKU
              </th>
              <th scope="col" className="px-3 py-2.5 font-medium">
                選項
              </th>
              <th scope="col" className="w-24 px-3 py-2.5 font-medium">
                售價
              </th>
              <th scope="col" className="w-24 px-3 py-2.5 font-medium">
                原價
              </th>
              <th scope="col" className="w-44 px-3 py-2.5 font-medium">
                庫存
              </th>
              <th scope="col" className="w-28 px-3 py-2.5 font-medium">
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
                    <CellInput id={cell('sku')} label={`第 ${n} 個規格的 SKU`} error={e?.sku?.message} autoComplete="off" spellCheck={false} placeholder="DD-75G" {...register(`variants.${i}.sku`)} />
                  </td>
                  <td className="px-3 py-2.5">
                    <CellInput id={cell('options')} label={`第 ${n} 個規格的選項（名稱=內容，以 ; 分隔）`} error={e?.options?.message} placeholder="規格=75 g;包裝=罐裝" {...register(`variants.${i}.options`)} />
                  </td>
                  <td className="px-3 py-2.5">
                    <CellInput id={cell('price')} label={`第 ${n} 個規格的售價`} error={e?.price?.message} inputMode="numeric" className="tabular" {...register(`variants.${i}.price`)} />
                  </td>
                  <td className="px-3 py-2.5">
                    <CellInput id={cell('compare')} label={`第 ${n} 個規格的原價（選填）`} error={e?.compareAtPrice?.message} inputMode="numeric" placeholder="選填" className="tabular" {...register(`variants.${i}.compareAtPrice`)} />
                  </td>
                  <td className="px-3 py-2.5">
                    {live ? (
                      <div className="flex min-h-10 flex-wrap items-center gap-x-3 gap-y-1.5">
                        <span className="flex items-center gap-2">
                          <span className="tabular text-base font-medium">{live.stock}</span>
                          <StockBadge stock={live.stock} low={live.stock <= live.lowStockThreshold} />
                        </span>
                        {canWrite && (
                          <Button size="sm" variant="secondary" onClick={() => onAdjust(live)} aria-label={`調整 ${live.sku} 的庫存`}>
                            調整庫存
                          </Button>
                        )}
                      </div>
                    ) : (
                      <CellInput id={cell('stock')} label={`第 ${n} 個規格的初始庫存`} error={e?.stock?.message} inputMode="numeric" className="tabular" {...register(`variants.${i}.stock`)} />
                    )}
                  </td>
                  <td className="px-3 py-2.5">
                    <CellInput id={cell('threshold')} label={`第 ${n} 個規格的低庫存門檻`} error={e?.lowStockThreshold?.message} inputMode="numeric" className="tabular" {...register(`variants.${i}.lowStockThreshold`)} />
                  </td>
                  <td className="px-2 py-2.5 text-center">
                    <input type="checkbox" aria-label={`第 ${n} 個規格販售中`} className="mt-2.5 size-5 cursor-pointer accent-tea" {...register(`variants.${i}.active`)} />
                  </td>
                  {canWrite && (
                    <td className="px-2 py-2.5">
                      {field.ordered ? (
                        <p className="pt-2 text-xs leading-snug text-ink-muted">已有訂單，只能取消「販售」</p>
                      ) : (
                        <Button size="sm" variant="ghost" className="text-danger!" disabled={fields.length <= 1} onClick={() => remove(i)} aria-label={`移除第 ${n} 個規格`}>
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
        <p className="text-sm text-ink-muted">選項寫成「名稱=內容」，多個以「;」分隔；不分規格可留白。原價留白表示沒有特價。</p>
        {canWrite && (
          <Button size="sm" variant="secondary" onClick={() => append(emptyVariant(), { focusName: `variants.${fields.length}.sku` })}>
            ＋ 新增規格
          </Button>
        )}
      </div>
    </div>
  );
}
