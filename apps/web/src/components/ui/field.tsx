import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { cn } from './cn.ts';

const controlClass =
  'block w-full rounded-md border bg-surface px-3.5 text-base text-ink placeholder:text-ink-muted/70 ' +
  // A 3 px ring where the focus is (WCAG 2.4.7). No focus:outline-none beside it: in Tailwind 4 that
  // sets the outline style to none for every focus, and the ring then drew nothing.
  'transition-colors focus-visible:outline-3 focus-visible:outline-solid focus-visible:outline-tea-dark focus-visible:outline-offset-0 ' +
  'disabled:bg-paper disabled:text-ink-muted';

interface FieldShellProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  required?: boolean | undefined;
  children: ReactNode;
  className?: string | undefined;
}

/** Label above, control, then hint or error below, tied with aria-describedby. */
function FieldShell({ id, label, hint, error, required, children, className }: FieldShellProps) {
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      {/* The required mark sits outside the label, so the field's accessible name is the label alone. */}
      <div className="flex items-baseline gap-1">
        <label htmlFor={id} className="text-sm font-medium text-ink">
          {label}
        </label>
        {required && (
          <span className="text-sm text-danger" aria-hidden="true">
            *
          </span>
        )}
      </div>
      {children}
      {error ? (
        <p id={`${id}-error`} className="flex items-start gap-1 text-sm text-danger" role="alert">
          <svg viewBox="0 0 20 20" className="mt-1 size-4 shrink-0" aria-hidden="true" fill="currentColor">
            <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm-.9 4h1.8v5.5H9.1V6Zm0 7.2h1.8V15H9.1v-1.8Z" />
          </svg>
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-sm text-ink-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  if (error) return `${id}-error`;
  if (hint) return `${id}-hint`;
  return undefined;
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  /** Extra content inside the control's row (e.g. a show-password toggle). */
  trailing?: ReactNode;
  ref?: Ref<HTMLInputElement>;
  containerClassName?: string;
  id?: string;
}

export function TextField({
  label,
  hint,
  error,
  trailing,
  className,
  containerClassName,
  required,
  id,
  ref,
  ...rest
}: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <FieldShell
      id={inputId}
      label={label}
      hint={hint}
      error={error}
      required={required}
      className={containerClassName}
    >
      <div className="relative">
        <input
          ref={ref}
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(inputId, error, hint)}
          aria-required={required || undefined}
          className={cn(
            controlClass,
            'min-h-11',
            error ? 'border-danger' : 'border-line hover:border-ink-muted/50',
            trailing ? 'pr-12' : '',
            className,
          )}
          {...rest}
        />
        {trailing && <div className="absolute inset-y-0 right-0 flex items-center pr-1">{trailing}</div>}
      </div>
    </FieldShell>
  );
}

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  ref?: Ref<HTMLTextAreaElement>;
  id?: string;
}

export function TextAreaField({
  label,
  hint,
  error,
  className,
  required,
  id,
  ref,
  ...rest
}: TextAreaFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <FieldShell id={inputId} label={label} hint={hint} error={error} required={required}>
      <textarea
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(inputId, error, hint)}
        aria-required={required || undefined}
        className={cn(controlClass, 'min-h-32 py-2.5', error ? 'border-danger' : 'border-line', className)}
        {...rest}
      />
    </FieldShell>
  );
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  ref?: Ref<HTMLSelectElement>;
  id?: string;
  children: ReactNode;
  containerClassName?: string;
}

export function SelectField({
  label,
  hint,
  error,
  className,
  containerClassName,
  required,
  id,
  ref,
  children,
  ...rest
}: SelectFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <FieldShell
      id={inputId}
      label={label}
      hint={hint}
      error={error}
      required={required}
      className={containerClassName}
    >
      <select
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(inputId, error, hint)}
        aria-required={required || undefined}
        className={cn(
          controlClass,
          'min-h-11 appearance-none bg-[length:1rem] bg-[right_0.75rem_center] bg-no-repeat pr-10',
          error ? 'border-danger' : 'border-line',
          className,
        )}
        style={{
          backgroundImage:
            "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 20 20' fill='%235B665F'%3E%3Cpath d='M5.5 7.5 10 12l4.5-4.5'  stroke='%235B665F' stroke-width='1.6' fill='none'/%3E%3C/svg%3E\")",
        }}
        {...rest}
      >
        {children}
      </select>
    </FieldShell>
  );
}

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  label: ReactNode;
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
  id?: string;
}

export function Checkbox({ label, error, className, id, ref, ...rest }: CheckboxProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <div className={cn('flex flex-col gap-1', className)}>
      <label
        htmlFor={inputId}
        className="flex min-h-11 cursor-pointer items-start gap-3 py-2 text-sm text-ink"
      >
        <input
          ref={ref}
          id={inputId}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          className="mt-1 size-5 shrink-0 cursor-pointer accent-tea"
          {...rest}
        />
        <span>{label}</span>
      </label>
      {error && (
        <p id={`${inputId}-error`} className="text-sm text-danger" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
