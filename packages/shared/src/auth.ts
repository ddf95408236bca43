import { z } from 'zod';

/** The current user as the client sees it (spec §3 user store: userInfo with a uid, providers). */
export const CurrentUser = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.string(),
  emailVerified: z.boolean(),
  providers: z.array(z.string()),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

export const MeResponse = z.object({ user: CurrentUser.nullable() });
export type MeResponse = z.infer<typeof MeResponse>;
