import { z } from 'zod';

/** A path lookup that may return a redirect (docs/product-rules.md#http-behaviour). */
export const RedirectLookupQuery = z.object({
  path: z
    .string()
    .min(1, '請提供路徑')
    .max(768, { message: '路徑過長', abort: true })
    .refine((p) => p.startsWith('/') && !p.startsWith('//'), '路徑必須以 / 開頭'),
});
export type RedirectLookupQuery = z.infer<typeof RedirectLookupQuery>;

export const RedirectTarget = z.object({
  target: z.string(),
  permanent: z.boolean(),
});

export const RedirectLookupResponse = z.object({
  redirect: RedirectTarget.nullable(),
});
export type RedirectLookupResponse = z.infer<typeof RedirectLookupResponse>;

export { isExternalTarget } from './redirect-target.ts';
