import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Combine, deflatePiece, gzipOf } from './gzip-pieces.ts';

describe('gzip in pieces', () => {
  it('joins CRC-32s as one over the joined text (the check value of "123456789")', () => {
    const whole = zlib.crc32('123456789');
    expect(whole).toBe(0xcbf43926);
    for (let cut = 0; cut <= 9; cut++) {
      const [a, b] = ['123456789'.slice(0, cut), '123456789'.slice(cut)];
      expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length)).toBe(whole);
    }
  });

  it('joins CRC-32s of random texts of any length', () => {
    for (const [la, lb] of [
      [0, 0],
      [1, 70_000],
      [65_536, 3],
      [12_345, 100_001],
    ] as const) {
      const a = randomBytes(la);
      const b = randomBytes(lb);
      expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), lb)).toBe(zlib.crc32(Buffer.concat([a, b])));
    }
  });

  it('makes a gzip stream that gunzips to the pieces and holes in order', () => {
    const page = '<!doctype html><html lang="zh-Hant-TW"><main>山嵐茶事 凍頂烏龍 '.repeat(400);
    const pieces = [page, '","cart":', '}</script></body></html>', ''].map((text) =>
      deflatePiece(Buffer.from(text)),
    );
    const holes = [
      Buffer.from('{"email":"demo@shanlan-tea.example","displayName":"林小嵐"}'),
      Buffer.alloc(0),
      randomBytes(140_000), // more than one stored block holds
    ];
    const parts = [pieces[0]!, holes[0]!, pieces[1]!, holes[1]!, pieces[2]!, holes[2]!, pieces[3]!];
    const gzip = gzipOf(parts);
    const expected = Buffer.concat([
      Buffer.from(page),
      holes[0]!,
      Buffer.from('","cart":'),
      holes[1]!,
      Buffer.from('}</script></body></html>'),
      holes[2]!,
    ]);
    // gunzip checks the trailer's CRC-32 and length: a wrong one throws.
    expect(zlib.gunzipSync(gzip).equals(expected)).toBe(true);
    expect(gzip.length).toBeLessThan(expected.length);
  });

  it('is refused by gunzip when a piece is left out (the trailer does not match)', () => {
    const a = deflatePiece(Buffer.from('a'.repeat(1000)));
    const b = deflatePiece(Buffer.from('b'.repeat(1000)));
    const gzip = gzipOf([a, b]);
    const tampered = Buffer.concat([gzip.subarray(0, 10), a.deflated, gzip.subarray(-13)]);
    expect(() => zlib.gunzipSync(tampered)).toThrow();
  });
});
