import zlib from 'node:zlib';

/**
 * A gzip stream (RFC 1952) put together from pieces compressed once and holes sent as they are,
 * for a kept page whose holes (a member's own parts) change on every answer:
 * docs/decisions/046-pages-kept-as-bytes.md.
 *
 * Each piece is raw DEFLATE (RFC 1951) from a compressor of its own, ended by a sync flush: its
 * blocks never refer to bytes before it and end on a byte boundary, so pieces can follow one
 * another in any order. A hole is a stored (uncompressed) block. The stream's CRC-32 is worked
 * out from the pieces' own, kept with them, so an answer reads only the holes' bytes.
 */
export interface DeflatedPiece {
  /** Raw DEFLATE blocks, none final, ending on a byte boundary. */
  readonly deflated: Buffer;
  /** CRC-32 and length of the piece's own bytes. */
  readonly crc: number;
  readonly length: number;
  /** x^(8·length) modulo the CRC polynomial: what a CRC before the piece is multiplied by. */
  readonly shift: number;
}

export function deflatePiece(raw: Buffer): DeflatedPiece {
  return {
    deflated: zlib.deflateRawSync(raw, { finishFlush: zlib.constants.Z_SYNC_FLUSH }),
    crc: zlib.crc32(raw),
    length: raw.length,
    shift: xToBytes(raw.length),
  };
}

const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]); // no name, no time, OS unknown
/** The last block: stored, final, empty. */
const LAST_BLOCK = Buffer.from([1, 0, 0, 0xff, 0xff]);
const STORED_MAX = 0xffff;

/** The gzip stream of the parts in order: pieces compressed once, holes (Buffers) stored as they are. */
export function gzipOf(parts: readonly (DeflatedPiece | Buffer)[]): Buffer {
  const out: Buffer[] = [HEADER];
  let crc = 0;
  let length = 0;
  for (const part of parts) {
    if (Buffer.isBuffer(part)) {
      for (let at = 0; at < part.length; at += STORED_MAX) {
        const chunk = part.subarray(at, at + STORED_MAX);
        const head = Buffer.allocUnsafe(5);
        head[0] = 0; // not final, stored; the rest of the byte is padding
        head.writeUInt16LE(chunk.length, 1);
        head.writeUInt16LE(~chunk.length & 0xffff, 3);
        out.push(head, chunk);
      }
      crc = zlib.crc32(part, crc);
      length += part.length;
    } else {
      out.push(part.deflated);
      crc = (multModP(part.shift, crc) ^ part.crc) >>> 0;
      length += part.length;
    }
  }
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  out.push(LAST_BLOCK, trailer);
  return Buffer.concat(out);
}

// CRC-32 of two texts joined, from each one's CRC and the second's length: the first's CRC times
// x^(8·length) modulo the CRC polynomial, plus the second's (arithmetic of polynomials over GF(2),
// bit-reflected as CRC-32 is).
const POLY = 0xedb88320;

/** a·b modulo the polynomial (both reflected: bit 31 is x^0). */
function multModP(a: number, b: number): number {
  let m = 1 << 31;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, for k = 0…31. */
const X_TO_2_TO_K = (() => {
  const table: number[] = [];
  let p = 1 << 30; // x^1
  for (let k = 0; k < 32; k++) {
    table.push(p >>> 0);
    p = multModP(p, p);
  }
  return table;
})();

/** x^(8·bytes) modulo the polynomial. */
function xToBytes(bytes: number): number {
  let p = (1 << 31) >>> 0; // x^0
  let k = 3; // 8 = 2^3
  for (let n = bytes; n > 0; n = Math.floor(n / 2), k++) if (n % 2) p = multModP(X_TO_2_TO_K[k % 32]!, p);
  return p;
}

export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multModP(xToBytes(lengthB), crcA) ^ crcB) >>> 0;
}
