import type { Permission } from '@shop/shared/admin';

export interface BucketRule {
  /** Readable by anyone; otherwise only with a session. */
  readonly public: boolean;
  /** Largest object, in bytes. */
  readonly maxBytes: number;
  /** Most the bucket may hold, in bytes. */
  readonly quotaBytes: number;
  /** Content types accepted, as sniffed from the bytes. */
  readonly types: readonly string[];
  /** Images get resized WebP copies for srcset. */
  readonly imageVariants: boolean;
  /** The console permission (packages/shared/src/admin.ts) needed to upload and delete. */
  readonly writePermission: Permission;
  /** Browser cache lifetime for reads, in seconds. */
  readonly maxAge: number;
}

const MB = 1024 * 1024;
const IMAGES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'] as const;

/** The buckets of this shop. A bucket not listed here does not exist (`bucket-not-found`). */
export const BUCKETS: Readonly<Record<string, BucketRule>> = {
  products: {
    public: true,
    maxBytes: 10 * MB,
    quotaBytes: 5 * 1024 * MB,
    types: IMAGES,
    imageVariants: true,
    writePermission: 'products.write',
    maxAge: 3600,
  },
  content: {
    public: true,
    maxBytes: 10 * MB,
    quotaBytes: 2 * 1024 * MB,
    types: [...IMAGES, 'application/pdf'],
    imageVariants: true,
    writePermission: 'content.write',
    maxAge: 3600,
  },
  downloads: {
    public: true,
    maxBytes: 30 * MB,
    quotaBytes: 2 * 1024 * MB,
    types: ['application/pdf', ...IMAGES],
    imageVariants: false,
    writePermission: 'content.write',
    maxAge: 600,
  },
  /** Photos members attach to a return request: read with a session (names carry a random id), written by the returns route. */
  returns: {
    public: false,
    maxBytes: 8 * MB,
    quotaBytes: 2 * 1024 * MB,
    types: ['image/jpeg', 'image/png', 'image/webp'],
    imageVariants: false,
    writePermission: 'orders.write',
    maxAge: 0,
  },
  members: {
    public: false,
    maxBytes: 30 * MB,
    quotaBytes: 2 * 1024 * MB,
    types: ['application/pdf', ...IMAGES],
    imageVariants: false,
    writePermission: 'content.write',
    maxAge: 0,
  },
};

export const MAX_UPLOAD_BYTES = Math.max(...Object.values(BUCKETS).map((b) => b.maxBytes));

/**
 * Most pixels a picture may have (about a 48-megapixel phone photo). Checked on the header before
 * any decoding and given to the decoder as its own limit, so a small file that declares a huge
 * picture (a decompression bomb) is refused instead of filling memory.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
