import { z } from 'zod';

/**
 * A product's rich description as structured blocks (not HTML): rendered by React without
 * innerHTML, so nothing a shop owner types can inject script.
 */
export const DescriptionBlock = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heading'), text: z.string().min(1).max(80) }),
  z.object({ type: z.literal('paragraph'), text: z.string().min(1).max(2000) }),
  z.object({ type: z.literal('list'), items: z.array(z.string().min(1).max(300)).min(1).max(20) }),
  z.object({
    type: z.literal('quote'),
    text: z.string().min(1).max(500),
    cite: z.string().max(80).optional(),
  }),
  z.object({
    type: z.literal('steps'),
    /** Brewing steps and the like. */
    items: z
      .array(z.object({ title: z.string().min(1).max(40), text: z.string().min(1).max(300) }))
      .min(1)
      .max(12),
  }),
]);
export type DescriptionBlock = z.infer<typeof DescriptionBlock>;

export const ProductSpec = z.object({ label: z.string().min(1).max(20), value: z.string().min(1).max(120) });
export type ProductSpec = z.infer<typeof ProductSpec>;
