/**
 * A random version-4 UUID for a checkout's idempotency key. Made from crypto.getRandomValues,
 * which every browser has, on plain http too: crypto.randomUUID exists only in a secure context
 * (https or localhost) and from Safari 15.4, so a shop opened at a LAN address over http, or on an
 * older iPhone, could not start a checkout with it.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
