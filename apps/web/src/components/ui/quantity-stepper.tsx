import { useId, useState, type KeyboardEvent } from 'react';
import { MOTION } from '../../config/motion.ts';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';

export interface QuantityStepperProps {
  value: number;
  onChange(value: number): void;
  max: number;
  /** Why `max` is the most, said when a typed number is brought down to it (「庫存只剩 96 件」); by default 「最多可選 {max} 件」. */
  maxReason?: string;
  /** 0 typed, or − at 1: the page may remove the line (the cart asks first). Without it, 0 becomes 1 with a word. */
  onZero?(): void;
  disabled?: boolean;
  label?: string;
  /** Keep the label for screen readers only (where the row already says what it is). */
  hideLabel?: boolean;
}

type Note = { tone: 'adjusted' | 'refused'; text: string } | null;

/** Full-width digits and minus signs (a Chinese keyboard's) read as their half-width forms. */
const halfWidth = (s: string) =>
  s.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)).replace(/[－−—–]/g, '-');

/**
 * − [n] + with a box for typing. What is typed is taken when the shopper confirms it (Enter or
 * leaving the box), never keystroke by keystroke, and a number that cannot be taken as it is is
 * never changed silently (docs/decisions/019-titles-quantities-phone-layout.md): above the most
 * it becomes the most and says why, 0 becomes 1 (or asks to remove, where the page can), and a
 * negative or broken number is refused with the quantity kept. The box grows with its digits after
 * the 150 ms debounce of `MOTION` (config/motion.ts), so it does not jump on every keystroke.
 */
export function QuantityStepper({
  value,
  onChange,
  max,
  maxReason,
  onZero,
  disabled = false,
  label = '數量',
  hideLabel = false,
}: QuantityStepperProps) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const [note, setNote] = useState<Note>(null);
  const top = Math.max(1, max);
  const text = draft ?? String(value);
  const width = useDebouncedValue(Math.max(2, text.length), MOTION.autoWidthDebounceMs);

  const set = (n: number, next: Note = null) => {
    setNote(next);
    if (n !== value) onChange(n);
  };

  const commit = () => {
    if (draft === null) return;
    setDraft(null);
    const typed = halfWidth(draft).trim();
    if (typed === '' || typed === String(value)) return setNote(null);
    if (typed.startsWith('-'))
      return setNote({ tone: 'refused', text: `數量不能是負數，請輸入 1 到 ${top} 之間的數字。` });
    if (!/^\d+$/.test(typed)) return setNote({ tone: 'refused', text: `請輸入 1 到 ${top} 之間的整數。` });
    const n = Number(typed);
    if (n === 0) {
      if (onZero) {
        setNote(null);
        return onZero();
      }
      return set(1, { tone: 'adjusted', text: '數量至少 1 件，已調整為 1' });
    }
    if (n > top)
      return set(top, { tone: 'adjusted', text: `${maxReason ?? `最多可選 ${top} 件`}，已調整為 ${top}` });
    set(n);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commit();
    }
    if (event.key === 'Escape' && draft !== null) {
      event.stopPropagation();
      setDraft(null);
    }
  };

  const button =
    'inline-flex size-11 items-center justify-center text-lg text-ink hover:bg-ink/5 disabled:text-ink-muted/50 disabled:hover:bg-transparent';
  const noteId = `${id}-note`;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'text-sm font-medium text-ink'}>
        {label}
      </label>
      <div className="inline-flex w-fit items-center rounded-md border border-line bg-surface">
        <button
          type="button"
          className={button}
          onClick={() => (value <= 1 ? onZero?.() : set(Math.min(value - 1, top)))}
          disabled={disabled || (value <= 1 && !onZero)}
          aria-label="減少數量"
        >
          −
        </button>
        <input
          id={id}
          inputMode="numeric"
          autoComplete="off"
          value={text}
          disabled={disabled}
          maxLength={6}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={onKeyDown}
          style={{ width: `${width + 1}ch` }}
          aria-invalid={note?.tone === 'refused' || undefined}
          aria-describedby={`${id}-max ${note?.tone === 'refused' ? `${id}-error` : noteId}`}
          className="tabular h-11 border-x border-line bg-transparent text-center text-base transition-[width] duration-100 focus-visible:outline-offset-0"
        />
        <button
          type="button"
          className={button}
          onClick={() => set(Math.min(value + 1, top))}
          disabled={disabled || value >= top}
          aria-label="增加數量"
        >
          +
        </button>
      </div>
      <p id={`${id}-max`} className="sr-only">
        最多可選 {top} 件
      </p>
      {/* A polite region present from the start, so an adjustment is read out; a refusal is an alert. */}
      <p id={noteId} role="status" className="text-sm text-[#8a5a2a] empty:hidden">
        {note?.tone === 'adjusted' ? note.text : null}
      </p>
      {note?.tone === 'refused' && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {note.text}
        </p>
      )}
    </div>
  );
}
