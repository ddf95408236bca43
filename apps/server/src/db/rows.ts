/** node-postgres and PGlite both return `{ rows }` from `db.execute`: the rows of a raw SQL query. */
export function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
