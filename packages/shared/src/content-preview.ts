/**
 * What the public pages need to know about content previews, kept apart from the console's schemas
 * so the shopper bundle stays small.
 */
export const PREVIEW_PARAM = 'preview';

/** The console editor of a document. */
export function contentEditorPath(kind: string, slug: string): string {
  return `/admin/content/${kind}/${encodeURIComponent(slug)}`;
}
