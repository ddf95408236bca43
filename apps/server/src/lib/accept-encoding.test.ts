import { describe, expect, it } from 'vitest';
import { acceptsEncoding } from './accept-encoding.ts';

describe('Accept-Encoding', () => {
  it('reads what browsers send', () => {
    expect(acceptsEncoding('gzip, deflate, br, zstd', 'gzip')).toBe(true);
    expect(acceptsEncoding('gzip, deflate, br, zstd', 'br')).toBe(true);
    expect(acceptsEncoding('deflate, gzip;q=1.0, *;q=0.5', 'br')).toBe(true);
  });

  it('refuses a coding not listed, or weighted 0', () => {
    expect(acceptsEncoding(undefined, 'gzip')).toBe(false);
    expect(acceptsEncoding('', 'gzip')).toBe(false);
    expect(acceptsEncoding('identity', 'gzip')).toBe(false);
    expect(acceptsEncoding('br', 'gzip')).toBe(false);
    expect(acceptsEncoding('gzip;q=0, br', 'gzip')).toBe(false);
    expect(acceptsEncoding('GZIP; Q=0.000', 'gzip')).toBe(false);
    expect(acceptsEncoding('*;q=0, br', 'gzip')).toBe(false);
    expect(acceptsEncoding('*, gzip;q=0', 'gzip')).toBe(false);
  });

  it('takes x-gzip for gzip, and several headers as one list', () => {
    expect(acceptsEncoding('x-gzip', 'gzip')).toBe(true);
    expect(acceptsEncoding(['br', 'gzip'], 'gzip')).toBe(true);
  });
});
