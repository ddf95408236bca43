/** The content editor's shared state: one document, server errors by field path, and how fields change them. */
export interface EditorContext {
  readonly errors: Readonly<Record<string, string>>;
  readonly readOnly: boolean;
  /** A new item: its slug can still be typed. */
  readonly isNew: boolean;
  /** FAQ categories for the category field. */
  readonly categories: ReadonlyArray<{ readonly value: string; readonly label: string }>;
  /** The whole document (a download's file field reads membersOnly). */
  readonly doc: Readonly<Record<string, unknown>>;
  /** Changes the value at a path from its latest value (uploads finish later; nothing typed meanwhile is lost). */
  update(path: string, change: (previous: unknown) => unknown): void;
  /** Drops server errors at a path and under it (its items moved or went). */
  clearErrors(path: string): void;
}

export const fieldId = (path: string) => `cf-${path.replaceAll('.', '-')}`;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value at a dotted path. */
export function getIn(doc: unknown, path: string): unknown {
  if (!path) return doc;
  let v = doc;
  for (const part of path.split('.'))
    v = Array.isArray(v) ? v[Number(part)] : isRecord(v) ? v[part] : undefined;
  return v;
}

/** A copy of the document with the value at a dotted path changed. */
export function updateIn(doc: unknown, path: string, change: (previous: unknown) => unknown): unknown {
  if (!path) return change(doc);
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const tail = rest.join('.');
  if (Array.isArray(doc) && /^\d+$/.test(head)) {
    const copy = [...doc];
    copy[Number(head)] = updateIn(doc[Number(head)], tail, change);
    return copy;
  }
  const obj = isRecord(doc) ? doc : {};
  return { ...obj, [head]: updateIn(obj[head], tail, change) };
}
