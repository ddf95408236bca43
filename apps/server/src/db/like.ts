/**
 * The one LIKE/ILIKE escape of the server: backslash, `%` and `_` in the shopper's or staff's
 * text are taken literally (PostgreSQL's default escape character is the backslash).
 */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%text%` for ILIKE: rows whose column contains the text, its wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${likeEscape(text)}%`;
}

/** `text%` for ILIKE: rows whose column starts with the text, its wildcards taken literally. */
export function prefixPattern(text: string): string {
  return `${likeEscape(text)}%`;
}
