import { z } from 'zod';
import { validateValue, type RuleRef } from './rules.ts';

/**
 * A text field checked by the spec §5 rules, as a zod schema both the form (zodResolver) and the
 * server use. Values are trimmed unless `raw` is set (passwords keep every character).
 */
export function textField(label: string, rules: string | readonly RuleRef[], options: { raw?: boolean } = {}) {
  const base = options.raw ? z.string({ error: `${label}為必填欄位` }) : z.string({ error: `${label}為必填欄位` }).trim();
  return base.superRefine((value, ctx) => {
    const message = validateValue(value, rules, label);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
}

/** A checkbox that must be ticked (e.g. accepting the terms). */
export function acceptField(message: string) {
  return z.boolean({ error: message }).refine((v) => v === true, { message });
}

/**
 * Adds the `confirmed` rule at object level: `field` must equal `target`. The error lands on
 * `field`, so the form shows it beside the confirmation input.
 */
export function confirmed<T extends z.ZodObject>(schema: T, field: string, target: string, label: string, targetLabel: string) {
  return schema.superRefine((values: Record<string, unknown>, ctx) => {
    const message = validateValue(values[field], [{ rule: 'confirmed', params: [target] }], label, { values, targetLabel });
    if (message) ctx.addIssue({ code: 'custom', path: [field], message });
  });
}
