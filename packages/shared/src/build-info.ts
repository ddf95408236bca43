import { z } from 'zod';

export { BUILD_MANIFEST_PATH } from './build-manifest-path.ts';

export const BuildManifest = z.object({
  buildId: z.string().min(1),
  builtAt: z.string(),
});
export type BuildManifest = z.infer<typeof BuildManifest>;
