import { z } from 'zod';

/**
 * The one error shape every API answer uses: `{ error: { code, message, fields? } }`.
 * `fields` maps a payload field name to a zh-TW message shown beside that field.
 */
export const ApiErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

export { CommonErrorCode } from './error-codes.ts';
