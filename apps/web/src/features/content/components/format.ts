/** yyyy-mm-dd → yyyy/mm/dd, as Taiwanese pages write dates. */
export function formatDate(iso: string): string {
  return iso.slice(0, 10).replaceAll('-', '/');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
