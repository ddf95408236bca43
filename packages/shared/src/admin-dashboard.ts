import { z } from 'zod';
import { ORDER_STATUSES } from './order-status.ts';

const Totals = z.object({ sales: z.number().int(), orders: z.number().int() });

/** GET /api/admin/dashboard: the owner's morning glance. Dates are Taipei calendar days. */
export const Dashboard = z.object({
  today: Totals,
  month: Totals,
  byStatus: z.array(z.object({ status: z.enum(ORDER_STATUSES), count: z.number().int() })),
  lowStock: z.array(
    z.object({
      productId: z.string(),
      productName: z.string(),
      sku: z.string(),
      variantLabel: z.string(),
      stock: z.number().int(),
      threshold: z.number().int(),
    }),
  ),
  /** The last 30 days, oldest first, every day present (zero when nothing sold). */
  daily: z.array(z.object({ date: z.string(), sales: z.number().int(), orders: z.number().int() })),
  generatedAt: z.string(),
});
export type Dashboard = z.infer<typeof Dashboard>;
