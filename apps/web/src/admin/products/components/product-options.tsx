import { useId, type ChangeEvent } from 'react';
import { useFieldArray, useWatch, type Path, type UseFormReturn } from 'react-hook-form';
import { MAX_OPTIONS } from '@shop/shared/admin-products';
import { Button } from '../../../components/ui/button.tsx';
import { CellInput, type ProductFormValues } from './product-form.tsx';

type Form = UseFormReturn<ProductFormValues>;

/** Every variant row's option choices: the checks that depend on the options' names and values. */
const allChoices = (form: Form) =>
  form.getValues('variants').map((_, i) => `variants.${i}.options` as Path<ProductFormValues>);

/**
 * The product's options, as Shopify's editor has them: each a name (規格) and its values (75 g,
 * 150 g), one input each. Variants then pick one value of each option (product-variants.tsx). A
 * value renamed here is renamed in the variants that chose it; a value or an option removed here
 * is removed from them.
 */
export function ProductOptions({ form, canWrite }: { form: Form; canWrite: boolean }) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'options' });

  const addOption = () => {
    form
      .getValues('variants')
      .forEach((v, i) => form.setValue(`variants.${i}.options`, [...v.options, ''], { shouldDirty: true }));
    append({ name: '', values: [{ value: '' }] }, { focusName: `options.${fields.length}.name` });
  };
  const removeOption = (k: number) => {
    form.getValues('variants').forEach((v, i) =>
      form.setValue(
        `variants.${i}.options`,
        v.options.filter((_, x) => x !== k),
        { shouldDirty: true },
      ),
    );
    remove(k);
  };

  return (
    <div className="flex flex-col gap-3" role="group" aria-labelledby="product-options-title">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="product-options-title" className="font-medium">
          選項
        </h3>
        <p className="text-sm text-ink-muted">
          例如「重量」有 75 g、150 g，「包裝」有罐裝、袋裝；每個規格各選一個。
        </p>
      </div>
      {fields.length === 0 && (
        <p className="rounded-md border border-dashed border-line px-3 py-3 text-sm text-ink-muted">
          只有一種規格時不需要選項。有不同重量、包裝或容量時，請新增選項。
        </p>
      )}
      {fields.map((field, k) => (
        <OptionRow key={field.id} form={form} k={k} canWrite={canWrite} onRemove={() => removeOption(k)} />
      ))}
      {canWrite && fields.length < MAX_OPTIONS && (
        <div>
          <Button size="sm" variant="secondary" onClick={addOption}>
            ＋ 新增選項
          </Button>
        </div>
      )}
    </div>
  );
}

function OptionRow({
  form,
  k,
  canWrite,
  onRemove,
}: {
  form: Form;
  k: number;
  canWrite: boolean;
  onRemove(): void;
}) {
  const uid = useId();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: `options.${k}.values` });
  const name = useWatch({ control: form.control, name: `options.${k}.name` });
  const errors = form.formState.errors.options?.[k];
  const label = name.trim() || `選項 ${k + 1}`;

  /** Variants that chose `from` for this option now have `to` ('' when the value is gone). */
  const renameChoice = (from: string, to: string) => {
    if (!from.trim()) return;
    form.getValues('variants').forEach((v, i) => {
      if (v.options[k]?.trim() === from.trim())
        form.setValue(`variants.${i}.options.${k}`, to.trim(), { shouldDirty: true });
    });
  };
  const removeValue = (j: number) => {
    const gone = form.getValues(`options.${k}.values.${j}.value`);
    const left = form.getValues(`options.${k}.values`).filter((_, x) => x !== j);
    if (!left.some((v) => v.value.trim() === gone.trim())) renameChoice(gone, '');
    remove(j);
    void form.trigger(allChoices(form));
  };
  const deps = allChoices(form);
  const valuesError = errors?.values?.message ?? errors?.values?.root?.message;

  return (
    <div className="rounded-lg border border-line bg-paper/60 p-3" role="group" aria-label={`選項：${label}`}>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)_auto] sm:items-start">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${uid}-name`} className="text-sm text-ink-muted">
            選項名稱
          </label>
          <CellInput
            id={`${uid}-name`}
            label={`第 ${k + 1} 個選項的名稱`}
            placeholder={k === 0 ? '重量' : k === 1 ? '包裝' : '容量'}
            error={errors?.name?.message}
            {...form.register(`options.${k}.name`, { deps })}
          />
        </div>
        <div className="flex flex-col gap-1">
          <span className="text-sm text-ink-muted" id={`${uid}-values`}>
            內容
          </span>
          <ul className="flex flex-wrap gap-2" aria-labelledby={`${uid}-values`}>
            {fields.map((field, j) => {
              const path = `options.${k}.values.${j}.value` as const;
              const registered = form.register(path, { deps });
              const onChange = (event: ChangeEvent<HTMLInputElement>) => {
                const before = form.getValues(path);
                renameChoice(before, event.target.value);
                return registered.onChange(event);
              };
              return (
                <li key={field.id} className="flex w-36 items-center gap-1">
                  <CellInput
                    id={`${uid}-value-${j}`}
                    label={`${label}的第 ${j + 1} 個內容`}
                    placeholder={k === 0 ? '75 g' : '罐裝'}
                    {...registered}
                    onChange={onChange}
                  />
                  {canWrite && fields.length > 1 && (
                    <button
                      type="button"
                      className="inline-flex size-10 shrink-0 items-center justify-center rounded-md text-ink-muted hover:bg-ink/5 hover:text-danger"
                      aria-label={`刪除${label}第 ${j + 1} 個內容`}
                      onClick={() => removeValue(j)}
                    >
                      ✕
                    </button>
                  )}
                </li>
              );
            })}
            {canWrite && (
              <li>
                <Button
                  size="sm"
                  variant="ghost"
                  className="min-h-10"
                  onClick={() =>
                    append({ value: '' }, { focusName: `options.${k}.values.${fields.length}.value` })
                  }
                >
                  ＋ 內容
                </Button>
              </li>
            )}
          </ul>
          {valuesError && (
            <p role="alert" className="text-xs leading-snug text-danger">
              {valuesError}
            </p>
          )}
        </div>
        {canWrite && (
          <Button
            size="sm"
            variant="ghost"
            className="self-start text-danger! sm:mt-6"
            onClick={onRemove}
            aria-label={`移除選項「${label}」`}
          >
            移除選項
          </Button>
        )}
      </div>
    </div>
  );
}
