import { useId, useRef } from 'react';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { objectUrl, variantName } from '@shop/shared/storage-paths';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { FileUpload } from '../../../features/storage/file-upload.tsx';
import type { ProductFormValues } from './product-form.tsx';

const MAX_IMAGES = 12;

/**
 * The product's pictures: upload through the storage service (with progress), an alt text per
 * picture, order changed with up/down buttons (focus follows the moved picture), remove. The
 * first picture is the cover in lists and the shop.
 */
export function ProductImages({
  form,
  canWrite,
}: {
  form: UseFormReturn<ProductFormValues>;
  canWrite: boolean;
}) {
  const uid = useId();
  const { fields, append, remove, move } = useFieldArray({
    control: form.control,
    name: 'images',
    keyName: 'key',
  });
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const errors = form.formState.errors.images;

  const moveTo = (from: number, to: number, which: 'up' | 'down') => {
    move(from, to);
    // Keep the keyboard on the picture that moved (or the other button when it reached an end).
    requestAnimationFrame(() => {
      const atEnd = (which === 'up' && to === 0) || (which === 'down' && to === fields.length - 1);
      buttons.current.get(`${to}-${atEnd ? (which === 'up' ? 'down' : 'up') : which}`)?.focus();
    });
  };

  return (
    <div className="flex flex-col gap-4">
      {(errors?.root?.message ?? errors?.message) && (
        <p role="alert" className="text-sm text-danger">
          {errors?.root?.message ?? errors?.message}
        </p>
      )}
      {fields.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-ink-muted">
          還沒有圖片。第一張圖片會用作商品列表與商品頁的封面。
        </p>
      ) : (
        <ol className="flex flex-col gap-3">
          {fields.map((field, i) => (
            <li
              key={field.key}
              className="flex flex-col gap-3 rounded-lg border border-line p-3 sm:flex-row sm:items-start"
            >
              <div className="flex items-start gap-3 sm:contents">
                <img
                  src={field.url}
                  alt=""
                  width={80}
                  height={100}
                  className="aspect-[4/5] w-20 shrink-0 rounded-md border border-line bg-paper object-cover"
                />
                <div className="flex min-w-0 flex-1 flex-col gap-1">
                  <p className="text-sm font-medium">
                    第 {i + 1} 張
                    {i === 0 && (
                      <span className="ml-2 rounded-full bg-tea-soft px-2 py-0.5 text-xs text-tea-dark">
                        封面
                      </span>
                    )}
                  </p>
                  <p className="truncate text-xs text-ink-muted" title={field.name}>
                    {field.name}
                  </p>
                </div>
              </div>
              <TextField
                containerClassName="flex-[2]"
                label={`第 ${i + 1} 張的圖片說明（替代文字）`}
                error={errors?.[i]?.alt?.message}
                {...form.register(`images.${i}.alt`)}
              />
              {canWrite && (
                <div
                  className="flex gap-1 sm:flex-col"
                  role="group"
                  aria-label={`第 ${i + 1} 張的排序與移除`}
                >
                  <button
                    type="button"
                    className={buttonClass('secondary', 'sm')}
                    disabled={i === 0}
                    ref={(el) =>
                      void (el ? buttons.current.set(`${i}-up`, el) : buttons.current.delete(`${i}-up`))
                    }
                    onClick={() => moveTo(i, i - 1, 'up')}
                    aria-label={`將第 ${i + 1} 張往前移`}
                  >
                    ↑ 往前
                  </button>
                  <button
                    type="button"
                    className={buttonClass('secondary', 'sm')}
                    disabled={i === fields.length - 1}
                    ref={(el) =>
                      void (el ? buttons.current.set(`${i}-down`, el) : buttons.current.delete(`${i}-down`))
                    }
                    onClick={() => moveTo(i, i + 1, 'down')}
                    aria-label={`將第 ${i + 1} 張往後移`}
                  >
                    ↓ 往後
                  </button>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-danger!"
                    onClick={() => remove(i)}
                    aria-label={`移除第 ${i + 1} 張圖片`}
                  >
                    移除
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      {canWrite && fields.length < MAX_IMAGES && (
        <div id={`${uid}-upload`}>
          <FileUpload
            bucket="products"
            pathPrefix="uploads"
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            label="上傳圖片"
            onUploaded={(object) =>
              append({
                name: object.name,
                alt: form.getValues('name').trim(),
                url: object.variants.includes(320)
                  ? objectUrl(object.bucket, variantName(object.name, 320))
                  : objectUrl(object.bucket, object.name),
              })
            }
          />
          <p className="mt-1 text-sm text-ink-muted">
            JPEG、PNG、WebP、AVIF 或 GIF，每張 10 MB 以內，最多 {MAX_IMAGES} 張；上傳後記得儲存。
          </p>
        </div>
      )}
    </div>
  );
}
