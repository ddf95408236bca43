import { useId, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import {
  BLOCK_FIELDS,
  BLOCK_LABELS,
  BLOCK_TYPES,
  emptyBlock,
  emptyObject,
  type BlockType,
  type ContentField,
} from '@shop/shared/admin-content';
import type { DescriptionBlock } from '@shop/shared/catalog-blocks';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Checkbox, SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { ContentFileField, ContentImageField } from './content-media-fields.tsx';
import { fieldId, getIn, type EditorContext } from './editor-paths.ts';

/**
 * The content editor's form, drawn from a kind's field description (shared/admin-content.ts).
 * Values live in one document held by the page; every field writes through `ctx.update(path, …)`
 * with the path the server uses in its messages (`sections.0.blocks.1.text`), so a server error
 * lands beside the very field it names.
 */

const join = (base: string, key: string | number) => (base ? `${base}.${key}` : String(key));
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asText = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** Errors at a path or under it. */
const errorsUnder = (errors: Readonly<Record<string, string>>, path: string) =>
  Object.keys(errors).some((k) => k === path || k.startsWith(`${path}.`));

function counter(value: unknown, max: number, hint?: string): ReactNode {
  const length = asText(value).length;
  return (
    <span className="flex flex-wrap justify-between gap-x-3">
      <span>{hint}</span>
      <span className={cn('tabular ml-auto', length > max && 'font-medium text-danger')}>
        {length} / {max} 字
      </span>
    </span>
  );
}

export function ObjectFields({
  fields,
  path,
  ctx,
}: {
  fields: readonly ContentField[];
  path: string;
  ctx: EditorContext;
}) {
  return (
    <div className="flex flex-col gap-5">
      {fields.map((f) => (
        <FieldEditor key={f.key} field={f} path={join(path, f.key)} ctx={ctx} />
      ))}
    </div>
  );
}

export function FieldEditor({ field, path, ctx }: { field: ContentField; path: string; ctx: EditorContext }) {
  const value = getIn(ctx.doc, path);
  const error = ctx.errors[path];
  const set = (v: unknown) => ctx.update(path, () => v);
  const id = fieldId(path);
  const disabled = ctx.readOnly;
  switch (field.type) {
    case 'slug':
      return (
        <TextField
          id={id}
          label={field.label}
          value={asText(value)}
          onChange={(e) => set(e.target.value)}
          readOnly={!ctx.isNew}
          disabled={disabled}
          required
          error={error}
          hint={ctx.isNew ? field.hint : '網址代碼建立後不能修改。'}
          autoComplete="off"
          spellCheck={false}
          className={cn(!ctx.isNew && 'bg-paper text-ink-muted')}
        />
      );
    case 'text':
      return (
        <TextField
          id={id}
          label={field.label}
          type={field.inputType ?? 'text'}
          value={asText(value)}
          onChange={(e) => set(e.target.value)}
          disabled={disabled}
          required={!field.optional}
          error={error}
          hint={counter(value, field.maxLength, field.hint)}
        />
      );
    case 'textarea':
      return (
        <TextAreaField
          id={id}
          label={field.label}
          value={asText(value)}
          onChange={(e) => set(e.target.value)}
          disabled={disabled}
          required
          error={error}
          rows={field.rows ?? 3}
          className="min-h-0!"
          hint={counter(value, field.maxLength, field.hint)}
        />
      );
    case 'number':
      return (
        <TextField
          id={id}
          label={field.label}
          type="number"
          inputMode="numeric"
          min={field.min}
          max={field.max}
          step={1}
          value={typeof value === 'number' ? String(value) : asText(value)}
          onChange={(e) => set(e.target.value === '' ? '' : Number(e.target.value))}
          disabled={disabled}
          required
          error={error}
          hint={field.hint ?? `${field.min}–${field.max}${field.unit ?? ''}`}
          containerClassName="max-w-48"
        />
      );
    case 'date':
      return (
        <TextField
          id={id}
          label={field.label}
          type="date"
          value={asText(value)}
          onChange={(e) => set(field.nullable && e.target.value === '' ? null : e.target.value)}
          disabled={disabled}
          required={!field.nullable}
          error={error}
          hint={field.hint}
          containerClassName="max-w-60"
        />
      );
    case 'boolean':
      return (
        <fieldset className="flex flex-col gap-1">
          <legend className="text-sm font-medium text-ink">{field.label}</legend>
          <Checkbox
            id={id}
            label={field.checkboxLabel}
            checked={value === true}
            onChange={(e) => set(e.target.checked)}
            disabled={disabled}
            error={error}
          />
        </fieldset>
      );
    case 'select':
      return (
        <SelectField
          id={id}
          label={field.label}
          value={asText(value)}
          onChange={(e) => set(e.target.value)}
          disabled={disabled}
          required
          error={error}
          hint={field.hint}
          className="max-w-80"
        >
          {!field.options.some((o) => o.value === value) && <option value="">請選擇</option>}
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectField>
      );
    case 'category':
      return (
        <SelectField
          id={id}
          label={field.label}
          value={asText(value)}
          onChange={(e) => set(e.target.value)}
          disabled={disabled}
          required
          error={error}
          className="max-w-80"
        >
          <option value="">請選擇分類</option>
          {ctx.categories.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </SelectField>
      );
    case 'strings':
      return <StringsEditor field={field} path={path} ctx={ctx} />;
    case 'list':
      return <ListEditor field={field} path={path} ctx={ctx} />;
    case 'blocks':
      return <BlocksEditor field={field} path={path} ctx={ctx} />;
    case 'image':
      return <ContentImageField field={field} path={path} ctx={ctx} />;
    case 'file':
      return <ContentFileField field={field} path={path} ctx={ctx} />;
  }
}

/**
 * Stable React keys for a list's items, moved with them, so focus and open panels follow an item
 * when it is moved with the keyboard.
 */
function useItemKeys(length: number) {
  const base = useId();
  const [keys, setKeys] = useState<string[]>(() => Array.from({ length }, (_, i) => `${base}-${i}`));
  const [next, setNext] = useState(length);
  const current =
    keys.length === length
      ? keys
      : [
          ...keys.slice(0, length),
          ...Array.from(
            { length: Math.max(0, length - keys.length) },
            (_, i) => `${base}-pad${keys.length + i}`,
          ),
        ];
  return {
    keys: current,
    /** Returns the new item's key. */
    add(): string {
      const key = `${base}-${next}`;
      setKeys([...current, key]);
      setNext(next + 1);
      return key;
    },
    remove(i: number) {
      setKeys(current.filter((_, j) => j !== i));
    },
    move(from: number, to: number) {
      const copy = [...current];
      const [k] = copy.splice(from, 1);
      copy.splice(to, 0, k!);
      setKeys(copy);
    },
  };
}

function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item as T);
  return copy;
}

/**
 * Up, down and remove for one item of a list; the buttons name the item for screen readers. After a
 * move the keyboard stays on the item (on the other arrow once it reaches an end); after a removal
 * it goes to the list.
 */
function ItemControls({
  idBase,
  listId,
  name,
  index,
  count,
  min,
  onMove,
  onRemove,
  disabled,
}: {
  idBase: string;
  listId: string;
  name: string;
  index: number;
  count: number;
  min: number;
  onMove(to: number): void;
  onRemove(): void;
  disabled: boolean;
}) {
  if (disabled) return null;
  const small =
    'inline-flex size-11 sm:size-9 items-center justify-center rounded-md border border-line bg-surface text-ink hover:bg-tea-soft disabled:cursor-not-allowed disabled:text-ink-muted/40 disabled:hover:bg-surface';
  const move = (to: number, direction: 'up' | 'down') => {
    flushSync(() => onMove(to));
    const wanted = document.getElementById(`${idBase}-${direction}`) as HTMLButtonElement | null;
    if (wanted && !wanted.disabled) wanted.focus();
    else document.getElementById(`${idBase}-${direction === 'up' ? 'down' : 'up'}`)?.focus();
  };
  return (
    <div className="flex shrink-0 items-center gap-1">
      <button
        type="button"
        id={`${idBase}-up`}
        className={small}
        aria-label={`上移${name}`}
        disabled={index === 0}
        onClick={() => move(index - 1, 'up')}
      >
        <svg
          viewBox="0 0 20 20"
          className="size-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          aria-hidden="true"
        >
          <path d="M5 12l5-5 5 5" />
        </svg>
      </button>
      <button
        type="button"
        id={`${idBase}-down`}
        className={small}
        aria-label={`下移${name}`}
        disabled={index === count - 1}
        onClick={() => move(index + 1, 'down')}
      >
        <svg
          viewBox="0 0 20 20"
          className="size-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          aria-hidden="true"
        >
          <path d="M5 8l5 5 5-5" />
        </svg>
      </button>
      <button
        type="button"
        className={cn(small, 'enabled:text-danger')}
        aria-label={`移除${name}`}
        disabled={count <= min}
        title={count <= min ? `至少要有 ${min} 個` : undefined}
        onClick={() => {
          flushSync(onRemove);
          document.getElementById(listId)?.focus();
        }}
      >
        <svg
          viewBox="0 0 20 20"
          className="size-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          aria-hidden="true"
        >
          <path d="M5 5l10 10M15 5 5 15" />
        </svg>
      </button>
    </div>
  );
}

/** A fieldset with the list's own error (too few, too many) under its legend. */
function ListShell({
  id,
  label,
  hint,
  error,
  children,
  footer,
  tools,
}: {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  children: ReactNode;
  footer?: ReactNode;
  tools?: ReactNode;
}) {
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${id}-error` : undefined}
      className="flex min-w-0 flex-col gap-3 rounded-lg focus:outline-none"
    >
      <legend className="mb-1 text-sm font-medium text-ink">{label}</legend>
      {tools && <div className="-mt-2 flex justify-end">{tools}</div>}
      {hint && <p className="-mt-2 text-sm text-ink-muted">{hint}</p>}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      {children}
      {footer}
    </fieldset>
  );
}

function StringsEditor({
  field,
  path,
  ctx,
}: {
  field: Extract<ContentField, { type: 'strings' }>;
  path: string;
  ctx: EditorContext;
}) {
  const items = asArray(getIn(ctx.doc, path));
  const keys = useItemKeys(items.length);
  const structural = (change: (list: unknown[]) => unknown[]) => {
    ctx.clearErrors(path);
    ctx.update(path, (prev) => change(asArray(prev)));
  };
  return (
    <ListShell
      id={fieldId(path)}
      label={field.label}
      hint={field.hint}
      error={ctx.errors[path]}
      footer={
        !ctx.readOnly && (
          <Button
            size="sm"
            variant="secondary"
            className="self-start"
            disabled={items.length >= field.maxItems}
            onClick={() => {
              keys.add();
              structural((list) => [...list, '']);
            }}
          >
            ＋ 新增{field.itemLabel}
            {items.length >= field.maxItems && `（最多 ${field.maxItems} 個）`}
          </Button>
        )
      }
    >
      {items.length === 0 && <p className="text-sm text-ink-muted">（尚無{field.itemLabel}）</p>}
      {items.length > 0 && (
        <ol className="flex flex-col gap-3">
          {items.map((item, i) => {
            const itemPath = join(path, i);
            const name = `第 ${i + 1} 個${field.itemLabel}`;
            const common = {
              id: fieldId(itemPath),
              label: name,
              value: asText(item),
              disabled: ctx.readOnly,
              required: true,
              error: ctx.errors[itemPath],
              hint: counter(item, field.itemMaxLength),
            };
            return (
              <li key={keys.keys[i]} className="flex flex-col gap-1 sm:flex-row sm:items-start sm:gap-2">
                <div className="min-w-0 flex-1">
                  {field.multiline ? (
                    <TextAreaField
                      {...common}
                      rows={4}
                      className="min-h-0!"
                      onChange={(e) => ctx.update(itemPath, () => e.target.value)}
                    />
                  ) : (
                    <TextField
                      {...common}
                      spellCheck={field.slugs ? false : undefined}
                      onChange={(e) => ctx.update(itemPath, () => e.target.value)}
                    />
                  )}
                </div>
                <div className="self-end sm:self-auto sm:pt-7">
                  <ItemControls
                    idBase={keys.keys[i]!}
                    listId={fieldId(path)}
                    name={name}
                    index={i}
                    count={items.length}
                    min={field.minItems}
                    disabled={ctx.readOnly}
                    onMove={(to) => {
                      keys.move(i, to);
                      structural((list) => moveItem(list, i, to));
                    }}
                    onRemove={() => {
                      keys.remove(i);
                      structural((list) => list.filter((_, j) => j !== i));
                    }}
                  />
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </ListShell>
  );
}

/** Long lists start folded, each item a panel with a one-line summary; an item with an error is always open. */
function ListEditor({
  field,
  path,
  ctx,
}: {
  field: Extract<ContentField, { type: 'list' }>;
  path: string;
  ctx: EditorContext;
}) {
  const items = asArray(getIn(ctx.doc, path));
  const keys = useItemKeys(items.length);
  // Items with several fields or rich text (sections, store locations) fold when there are many; short ones (steps) never do.
  const heavy = field.fields.length > 3 || field.fields.some((f) => f.type === 'blocks' || f.type === 'list');
  const foldable = heavy && items.length > 3;
  // Folded lists start with the first item open, as an example of what each holds.
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(keys.keys.slice(0, 1)));
  const allOpen = keys.keys.every((k) => open.has(k));
  const structural = (change: (list: unknown[]) => unknown[]) => {
    ctx.clearErrors(path);
    ctx.update(path, (prev) => change(asArray(prev)));
  };
  return (
    <ListShell
      id={fieldId(path)}
      label={field.label}
      hint={field.hint}
      error={ctx.errors[path]}
      tools={
        foldable && (
          <button
            type="button"
            className="text-sm text-tea underline-offset-4 hover:underline"
            onClick={() => setOpen(allOpen ? new Set() : new Set(keys.keys))}
          >
            {allOpen ? '全部收合' : '全部展開'}
          </button>
        )
      }
      footer={
        !ctx.readOnly &&
        field.minItems !== field.maxItems && (
          <Button
            size="sm"
            variant="secondary"
            className="self-start"
            disabled={items.length >= field.maxItems}
            onClick={() => {
              const key = keys.add();
              setOpen((prev) => new Set(prev).add(key));
              structural((list) => [...list, emptyObject(field.fields)]);
            }}
          >
            ＋ 新增{field.itemLabel}
            {items.length >= field.maxItems && `（最多 ${field.maxItems} 個）`}
          </Button>
        )
      }
    >
      <ol className="flex flex-col gap-3">
        {items.map((item, i) => {
          const itemPath = join(path, i);
          const key = keys.keys[i]!;
          const summary = field.summaryKey && isRecord(item) ? asText(item[field.summaryKey]) : '';
          const name = `第 ${i + 1} 個${field.itemLabel}`;
          const hasError = errorsUnder(ctx.errors, itemPath);
          const isOpen = !foldable || hasError || open.has(key);
          const panelId = `${fieldId(itemPath)}-panel`;
          return (
            <li
              key={key}
              className={cn('rounded-lg border bg-paper/50', hasError ? 'border-danger/50' : 'border-line')}
            >
              <div className="flex items-center gap-2 px-3 py-2">
                {foldable ? (
                  <button
                    type="button"
                    aria-expanded={isOpen}
                    aria-controls={panelId}
                    disabled={hasError}
                    onClick={() =>
                      setOpen((prev) => {
                        const nextOpen = new Set(prev);
                        if (nextOpen.has(key)) nextOpen.delete(key);
                        else nextOpen.add(key);
                        return nextOpen;
                      })
                    }
                    className="flex min-h-9 min-w-0 flex-1 items-center gap-2 rounded text-left text-sm font-medium hover:text-tea"
                  >
                    <span
                      aria-hidden="true"
                      className={cn('inline-block text-tea transition-transform', isOpen && 'rotate-90')}
                    >
                      ▸
                    </span>
                    <span className="truncate">
                      {field.itemLabel} {i + 1}
                      {summary && `：${summary}`}
                    </span>
                  </button>
                ) : (
                  <p className="min-w-0 flex-1 truncate text-sm font-medium">
                    {field.itemLabel} {i + 1}
                    {summary && <span className="font-normal text-ink-muted">：{summary}</span>}
                  </p>
                )}
                <ItemControls
                  idBase={key}
                  listId={fieldId(path)}
                  name={name}
                  index={i}
                  count={items.length}
                  min={field.minItems}
                  disabled={ctx.readOnly}
                  onMove={(to) => {
                    keys.move(i, to);
                    structural((list) => moveItem(list, i, to));
                  }}
                  onRemove={() => {
                    keys.remove(i);
                    structural((list) => list.filter((_, j) => j !== i));
                  }}
                />
              </div>
              {isOpen && (
                <div id={panelId} className="border-t border-line bg-surface px-3 py-4 sm:px-4">
                  <ObjectFields fields={field.fields} path={itemPath} ctx={ctx} />
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </ListShell>
  );
}

/** Keeps what can be kept when a block changes type (a paragraph's text becomes a list's lines). */
function convertBlock(block: unknown, type: BlockType): DescriptionBlock {
  const b = isRecord(block) ? block : {};
  const text = asText(b.text);
  const items = asArray(b.items);
  const lines = items.length
    ? items.map((i) =>
        isRecord(i) ? [asText(i.title), asText(i.text)].filter(Boolean).join('：') : asText(i),
      )
    : text.split('\n').filter((l) => l.trim());
  switch (type) {
    case 'paragraph':
    case 'heading':
      return { type, text: text || lines.join('\n') };
    case 'quote': {
      const cite = asText(b.cite);
      return { type, text: text || lines.join('\n'), ...(cite ? { cite } : {}) };
    }
    case 'list':
      return { type, items: lines.length ? lines : [''] };
    case 'steps':
      return {
        type,
        items:
          items.length && items.every(isRecord)
            ? (items as Array<{ title: string; text: string }>)
            : lines.length
              ? lines.map((l) => ({ title: l.slice(0, 40), text: '' }))
              : [{ title: '', text: '' }],
      };
  }
}

function BlocksEditor({
  field,
  path,
  ctx,
}: {
  field: Extract<ContentField, { type: 'blocks' }>;
  path: string;
  ctx: EditorContext;
}) {
  const blocks = asArray(getIn(ctx.doc, path));
  const keys = useItemKeys(blocks.length);
  const structural = (change: (list: unknown[]) => unknown[]) => {
    ctx.clearErrors(path);
    ctx.update(path, (prev) => change(asArray(prev)));
  };
  const full = blocks.length >= field.maxItems;
  return (
    <ListShell
      id={fieldId(path)}
      label={field.label}
      hint={field.hint}
      error={ctx.errors[path]}
      footer={
        !ctx.readOnly && (
          <div
            className="flex flex-wrap items-center gap-2"
            role="group"
            aria-label={`在${field.label}最後新增區塊`}
          >
            <span className="text-sm text-ink-muted">新增：</span>
            {BLOCK_TYPES.map((t) => (
              <Button
                key={t.type}
                size="sm"
                variant="secondary"
                disabled={full}
                onClick={() => {
                  keys.add();
                  structural((list) => [...list, emptyBlock(t.type)]);
                }}
              >
                ＋ {t.label}
              </Button>
            ))}
            {full && <span className="text-sm text-ink-muted">最多 {field.maxItems} 個區塊</span>}
          </div>
        )
      }
    >
      <ol className="flex flex-col gap-3">
        {blocks.map((block, i) => {
          const blockPath = join(path, i);
          const type =
            isRecord(block) && typeof block.type === 'string' && block.type in BLOCK_FIELDS
              ? (block.type as BlockType)
              : 'paragraph';
          const name = `第 ${i + 1} 個區塊（${BLOCK_LABELS[type]}）`;
          const hasError = errorsUnder(ctx.errors, blockPath);
          return (
            <li
              key={keys.keys[i]}
              className={cn('rounded-lg border bg-surface', hasError ? 'border-danger/50' : 'border-line')}
            >
              <div className="flex flex-wrap items-end gap-2 border-b border-line bg-paper/60 px-3 py-2">
                <SelectField
                  id={fieldId(join(blockPath, 'type'))}
                  label={`第 ${i + 1} 個區塊的類型`}
                  value={type}
                  disabled={ctx.readOnly}
                  error={ctx.errors[join(blockPath, 'type')]}
                  onChange={(e) => {
                    ctx.clearErrors(blockPath);
                    ctx.update(blockPath, (prev) => convertBlock(prev, e.target.value as BlockType));
                  }}
                  className="w-36 text-sm"
                >
                  {BLOCK_TYPES.map((t) => (
                    <option key={t.type} value={t.type}>
                      {t.label}
                    </option>
                  ))}
                </SelectField>
                <div className="ml-auto">
                  <ItemControls
                    idBase={keys.keys[i]!}
                    listId={fieldId(path)}
                    name={name}
                    index={i}
                    count={blocks.length}
                    min={field.minItems}
                    disabled={ctx.readOnly}
                    onMove={(to) => {
                      keys.move(i, to);
                      structural((list) => moveItem(list, i, to));
                    }}
                    onRemove={() => {
                      keys.remove(i);
                      structural((list) => list.filter((_, j) => j !== i));
                    }}
                  />
                </div>
              </div>
              <div className="px-3 py-4 sm:px-4">
                <ObjectFields fields={BLOCK_FIELDS[type]} path={blockPath} ctx={ctx} />
              </div>
            </li>
          );
        })}
      </ol>
    </ListShell>
  );
}
