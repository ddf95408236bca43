/** An absolute external target causes a full-page navigation; anything else is in-app (docs/product-rules.md#http-behaviour). */
export function isExternalTarget(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(target) || target.startsWith('//');
}
