import { useId } from 'react';
import { MOTION } from '../../config/motion.ts';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';

export interface QuantityStepperProps {
  value: number;
  onChange(value: number): void;
  min?: number;
  max: number;
  disabled?: boolean;
  label?: string;
  /** Keep the label for screen readers only (where the row already says what it is). */
  hideLabel?: boolean;
}

/**
 * − [n] + with an input that grows with its digits; the width follows typing after the 150 ms
 * debounce of `MOTION` (config/motion.ts, docs/product-rules.md#limits-and-timings), so it does not jump on every keystroke.
 */
export function QuantityStepper({ value, onChange, min = 1, max, disabled = false, label = '數量', hideLabel = false }: QuantityStepperProps) {
  const id = useId();
  const text = String(value);
  const width = useDebouncedValue(Math.max(2, text.length), MOTION.autoWidthDebounceMs);
  const clamp = (n: number) => Math.min(Math.max(n, min), Math.max(min, max));
  const button = 'inline-flex size-11 items-center justify-center text-lg text-ink hover:bg-ink/5 disabled:text-ink-muted/50 disabled:hover:bg-transparent';
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'text-sm font-medium text-ink'}>
        {label}
      </label>
      <div className="inline-flex w-fit items-center rounded-md border border-line bg-surface">
        <button type="button" className={button} onClick={() => onChange(clamp(value - 1))} disabled={disabled || value <= min} aria-label="減少數量">
          −
        </button>
        <input
          id={id}
          inputMode="numeric"
          pattern="[0-9]*"
          value={text}
          disabled={disabled}
          onChange={(e) => {
            const digits = e.target.value.replace(/\D/g, '').slice(0, 4);
            onChange(digits === '' ? min : clamp(Number(digits)));
          }}
          style={{ width: `${width + 1}ch` }}
          className="tabular h-11 border-x border-line bg-transparent text-center text-base transition-[width] duration-100 focus-visible:outline-offset-0"
          aria-describedby={`${id}-max`}
        />
        <button type="button" className={button} onClick={() => onChange(clamp(value + 1))} disabled={disabled || value >= max} aria-label="增加數量">
          +
        </button>
      </div>
      <p id={`${id}-max`} className="sr-only">
        最多可選 {max} 件
      </p>
    </div>
  );
}
