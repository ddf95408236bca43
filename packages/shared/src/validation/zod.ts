import { z } from 'zod';
import { parseRules, PATTERN_INPUT_MAX, ruleMessage, validateValue, type RuleRef } from './rules.ts';

/**
 * A text field checked by the shared validation rules, as a zod schema both the form (zodResolver) and the
 * server use. Values are trimmed unless `raw` is set (passwords keep every character).
 *
 * Before any rule runs, the (trimmed) value's length is capped and parsing stops there:
 * twice the field's tightest `max`/`length`/`digits` bound in UTF-16 units (a character takes one
 * or two), or PATTERN_INPUT_MAX for a field without one. So a 1 MB value costs no more than a
 * short one, and the over-long value gets the `max` message.
 */
export function textField(
  label: string,
  rules: string | readonly RuleRef[],
  options: { raw?: boolean } = {},
) {
  const refs = parseRules(rules);
  const bound = Math.min(
    ...refs
      .filter((r) => r.rule === 'max' || r.rule === 'length' || r.rule === 'digits')
      .map((r) => Number(r.params[0]))
      .filter((n) => n >= 0),
  );
  const chars = Number.isFinite(bound) ? bound : PATTERN_INPUT_MAX;
  const units = Number.isFinite(bound) ? bound * 2 : PATTERN_INPUT_MAX;
  const text = z.string({ error: `${label}為必填欄位` });
  // Trimming is linear and cheap; the rules after the cap are what must never see a long value.
  const base = (options.raw ? text : text.trim()).max(units, {
    message: ruleMessage('max', label, [String(chars)]),
    abort: true,
  });
  return base.superRefine((value, ctx) => {
    const message = validateValue(value, refs, label);
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
export function confirmed<T extends z.ZodObject>(
  schema: T,
  field: string,
  target: string,
  label: string,
  targetLabel: string,
) {
  return schema.superRefine((values: Record<string, unknown>, ctx) => {
    const message = validateValue(values[field], [{ rule: 'confirmed', params: [target] }], label, {
      values,
      targetLabel,
    });
    if (message) ctx.addIssue({ code: 'custom', path: [field], message });
  });
}
