import { useId } from 'react';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { Button } from '../../../components/ui/button.tsx';
import { TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { STEP_SEPARATOR, type EditableBlock, type ProductFormValues } from './product-form.tsx';

const BLOCK_NAMES: Record<EditableBlock['type'], string> = {
  heading: '小標題',
  paragraph: '段落',
  list: '清單',
  quote: '引言',
  steps: '沖泡步驟',
};

const NEW_BLOCK: Record<EditableBlock['type'], () => EditableBlock> = {
  heading: () => ({ type: 'heading', text: '' }),
  paragraph: () => ({ type: 'paragraph', text: '' }),
  list: () => ({ type: 'list', text: '' }),
  quote: () => ({ type: 'quote', text: '', cite: '' }),
  steps: () => ({ type: 'steps', text: '' }),
};

/**
 * The product description as blocks (the shop renders them without HTML): headings, paragraphs,
 * lists (one item per line), quotes with a source, and brewing steps (「標題｜說明」 per line).
 * Every existing block type can be edited, so a save never drops a block.
 */
export function ProductDescriptionEditor({
  form,
  canWrite,
}: {
  form: UseFormReturn<ProductFormValues>;
  canWrite: boolean;
}) {
  const uid = useId();
  const { fields, append, remove, move } = useFieldArray({
    control: form.control,
    name: 'description',
    keyName: 'key',
  });
  const errors = form.formState.errors.description;

  return (
    <div className="flex flex-col gap-4">
      {fields.length === 0 && (
        <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-ink-muted">
          還沒有商品說明。
        </p>
      )}
      <ol className="flex flex-col gap-3">
        {fields.map((field, i) => {
          const error =
            (errors?.[i] as { message?: string } | undefined)?.message ?? errors?.[i]?.text?.message;
          const label = `第 ${i + 1} 段・${BLOCK_NAMES[field.type]}`;
          return (
            <li key={field.key} className="flex flex-col gap-3 rounded-lg border border-line p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm font-medium">{label}</p>
                {canWrite && (
                  <div className="flex gap-1" role="group" aria-label={`${label}的排序與移除`}>
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={i === 0}
                      onClick={() => move(i, i - 1)}
                      aria-label={`將${label}往前移`}
                    >
                      ↑
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={i === fields.length - 1}
                      onClick={() => move(i, i + 1)}
                      aria-label={`將${label}往後移`}
                    >
                      ↓
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-danger!"
                      onClick={() => remove(i)}
                      aria-label={`移除${label}`}
                    >
                      移除
                    </Button>
                  </div>
                )}
              </div>
              {field.type === 'heading' && (
                <TextField
                  id={`${uid}-${i}`}
                  label="標題文字"
                  error={error}
                  {...form.register(`description.${i}.text`)}
                />
              )}
              {field.type === 'paragraph' && (
                <TextAreaField
                  id={`${uid}-${i}`}
                  label="段落文字"
                  rows={4}
                  error={error}
                  {...form.register(`description.${i}.text`)}
                />
              )}
              {field.type === 'list' && (
                <TextAreaField
                  id={`${uid}-${i}`}
                  label="清單項目"
                  hint="每行一項。"
                  rows={4}
                  error={error}
                  {...form.register(`description.${i}.text`)}
                />
              )}
              {field.type === 'steps' && (
                <TextAreaField
                  id={`${uid}-${i}`}
                  label="步驟"
                  hint={`每行一步，寫成「標題${STEP_SEPARATOR}說明」，例如「溫壺${STEP_SEPARATOR}以熱水溫熱茶壺與茶杯」。`}
                  rows={4}
                  error={error}
                  {...form.register(`description.${i}.text`)}
                />
              )}
              {field.type === 'quote' && (
                <>
                  <TextAreaField
                    id={`${uid}-${i}`}
                    label="引言"
                    rows={3}
                    error={error}
                    {...form.register(`description.${i}.text`)}
                  />
                  <TextField
                    label="出處（選填）"
                    error={(errors?.[i] as { cite?: { message?: string } } | undefined)?.cite?.message}
                    {...form.register(`description.${i}.cite`)}
                  />
                </>
              )}
            </li>
          );
        })}
      </ol>
      {canWrite && (
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-ink-muted">新增：</span>
          {(Object.keys(BLOCK_NAMES) as Array<EditableBlock['type']>).map((type) => (
            <Button
              key={type}
              size="sm"
              variant="secondary"
              onClick={() => append(NEW_BLOCK[type](), { focusName: `description.${fields.length}.text` })}
            >
              ＋ {BLOCK_NAMES[type]}
            </Button>
          ))}
        </div>
      )}
    </div>
  );
}
