import type { Tx } from '../db/client.ts';
import { saveRedirect } from '../modules/redirects/service.ts';

/** Old links of the demo shop that still have to work. */
export async function seedRedirects(tx: Tx): Promise<string> {
  const demo: Array<[string, string]> = [
    // A retired product page whose tea is now sold in the mall's main listing.
    ['/mall/2019-winter-oolong', '/mall'],
  ];
  for (const [path, target] of demo) await saveRedirect(tx, path, target, true);
  return `${demo.length} 筆轉址`;
}
