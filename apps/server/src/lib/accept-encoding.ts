/**
 * Whether a request's Accept-Encoding takes `coding`: listed (or `*` when it is not) with a
 * weight above 0 (RFC 9110, its Accept-Encoding section). No header: only `identity`.
 */
export function acceptsEncoding(header: string | string[] | undefined, coding: 'gzip' | 'br'): boolean {
  if (!header) return false;
  let star: boolean | null = null;
  for (const item of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const takes = q === undefined || Number(q.slice(2)) > 0;
    if (name === coding || (coding === 'gzip' && name === 'x-gzip')) return takes;
    if (name === '*') star = takes;
  }
  return star ?? false;
}
