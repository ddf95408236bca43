import { z } from 'zod';

/** Deleting one's own account: the member ticks that they understand; the password was just confirmed. */
export const DeleteAccountBody = z
  .object({
    understood: z.literal(true, { error: '請勾選「我了解刪除後無法復原」' }),
  })
  .strict();
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;

/** The code of a refusal while orders are still under way. */
export const ACCOUNT_BUSY = 'account-has-open-orders';

/** Where the export's file name starts; the Taipei date follows. */
export const EXPORT_FILE_PREFIX = 'shanlan-member-data';
