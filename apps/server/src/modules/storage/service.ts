import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { can } from '@shop/shared/admin';
import { IMAGE_WIDTHS, variantName, type StorageObjectMetadata } from '@shop/shared/storage-paths';
import type { DbOrTx } from '../../db/client.ts';
import type { ObjectStore, ByteRange } from './backends.ts';
import { BUCKETS, MAX_IMAGE_PIXELS, type BucketRule } from './buckets.ts';
import { storageError } from './errors.ts';
import { validateObjectName } from './object-path.ts';
import * as repo from './repo.ts';
import { sniffContentType } from './sniff.ts';

export interface StorageDeps {
  readonly db: DbOrTx;
  readonly store: ObjectStore;
}

export interface Caller {
  readonly userId: string;
  readonly role: string;
}

export type ObjectMetadata = StorageObjectMetadata;

const VARIANT_SUFFIX = /@\d+\.webp$/;

export function toMetadata(row: repo.StorageObjectRow): ObjectMetadata {
  return {
    bucket: row.bucket,
    name: row.name,
    size: row.size,
    contentType: row.contentType,
    etag: `"${row.sha256}"`,
    updated: row.updatedAt.toISOString(),
    width: row.width,
    height: row.height,
    variants: row.variants,
  };
}

export function bucketRule(bucket: string): BucketRule {
  const rule = BUCKETS[bucket];
  if (!rule) throw storageError('bucket-not-found');
  return rule;
}

/** Read access: public buckets for anyone, the others with a session. */
export function assertCanRead(bucket: string, caller: Caller | null): BucketRule {
  const rule = bucketRule(bucket);
  if (!rule.public && !caller) throw storageError('unauthenticated');
  return rule;
}

/**
 * Write access: a console role with the bucket's permission. Uploads run this before their body
 * is read, so a refused caller never gets a byte into memory.
 */
export function assertCanWrite(bucket: string, caller: Caller | null): BucketRule {
  const rule = bucketRule(bucket);
  if (!caller) throw storageError('unauthenticated');
  if (!can(caller.role, rule.writePermission)) throw storageError('unauthorized');
  return rule;
}

/** A file over the bucket's size limit (checked on the declared length first, then on the bytes). */
export function assertSize(rule: BucketRule, size: number): void {
  if (size > rule.maxBytes)
    throw storageError('quota-exceeded', `檔案不能超過 ${Math.round(rule.maxBytes / 1024 / 1024)} MB。`);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function describeTypes(types: readonly string[]): string {
  const names: Record<string, string> = {
    'image/jpeg': 'JPEG',
    'image/png': 'PNG',
    'image/webp': 'WebP',
    'image/avif': 'AVIF',
    'image/gif': 'GIF',
    'application/pdf': 'PDF',
  };
  return types.map((t) => names[t] ?? t).join('、');
}

/**
 * Stores a file after checking the caller, the name, the size, the bucket's quota, the type
 * sniffed from the bytes and, when given, the client's SHA-256. Images in buckets that ask for
 * it also get WebP copies at 320, 640 and 1280 px.
 */
export async function upload(
  deps: StorageDeps,
  caller: Caller | null,
  bucket: string,
  rawName: string,
  bytes: Buffer,
  expectedSha256?: string,
): Promise<ObjectMetadata> {
  const rule = assertCanWrite(bucket, caller);
  return storeObject(deps, rule, bucket, rawName, bytes, {
    expectedSha256,
    uploadedBy: caller?.userId ?? null,
  });
}

/** The checks and writes of `upload`, without the caller check (seed data uses this directly). */
export async function storeObject(
  deps: StorageDeps,
  rule: BucketRule,
  bucket: string,
  rawName: string,
  bytes: Buffer,
  options: { expectedSha256?: string | undefined; uploadedBy: string | null },
): Promise<ObjectMetadata> {
  const name = validateObjectName(rawName);
  if (VARIANT_SUFFIX.test(name))
    throw storageError('invalid-argument', '檔名不能以「@數字.webp」結尾，這是縮圖保留的格式。');
  if (bytes.length === 0) throw storageError('invalid-argument', '檔案是空的。');
  assertSize(rule, bytes.length);
  const contentType = sniffContentType(bytes);
  if (!contentType || !rule.types.includes(contentType)) {
    throw storageError('invalid-argument', `不支援這種檔案格式，請上傳 ${describeTypes(rule.types)} 檔。`);
  }
  const hash = sha256(bytes);
  if (options.expectedSha256 !== undefined && options.expectedSha256.toLowerCase() !== hash)
    throw storageError('invalid-checksum');

  const existing = await repo.findObject(deps.db, bucket, name);
  const used = await repo.bucketBytes(deps.db, bucket);
  if (used - (existing?.size ?? 0) + bytes.length > rule.quotaBytes) {
    throw Object.assign(storageError('quota-exceeded', '檔案空間已滿，請先刪除不用的檔案。'), {
      statusCode: 507,
    });
  }

  let width: number | null = null;
  let height: number | null = null;
  let variants: number[] = [];
  const copies: { name: string; data: Buffer; width: number; height: number }[] = [];
  if (contentType.startsWith('image/')) {
    const unreadable = () => storageError('invalid-argument', '圖片檔案無法讀取，可能已經損毀。');
    // The header alone gives the size (nothing is decoded yet, so no pixel limit is needed here,
    // and a huge picture is named as such rather than as unreadable).
    const meta = await sharp(bytes, { limitInputPixels: false })
      .metadata()
      .catch(() => null);
    if (!meta?.width || !meta.height) throw unreadable();
    width = meta.width;
    height = meta.height;
    if (width * height > MAX_IMAGE_PIXELS) {
      throw storageError(
        'invalid-argument',
        `圖片太大（${width} × ${height} 像素），請縮小到 ${(MAX_IMAGE_PIXELS / 10_000).toLocaleString('en-US')} 萬像素以內（例如 8000 × 6000）再上傳。`,
      );
    }
    // The picture is decoded once, whole, before anything is written: a file whose header is fine
    // but whose data is cut off or broken is refused as bad input, not stored half-way.
    const decoder = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS });
    try {
      if (rule.imageVariants) {
        // One decode, turned upright and shrunk to the widest copy; the smaller copies come from those pixels.
        const widest = await decoder
          .rotate()
          .resize({ width: Math.max(...IMAGE_WIDTHS), withoutEnlargement: true })
          .raw({ depth: 'uchar' })
          .toBuffer({ resolveWithObject: true });
        const pixels = {
          width: widest.info.width,
          height: widest.info.height,
          channels: widest.info.channels,
        };
        for (const w of IMAGE_WIDTHS) {
          const copy = await sharp(widest.data, { raw: pixels })
            .resize({ width: w, withoutEnlargement: true })
            .webp({ quality: 78 })
            .toBuffer({ resolveWithObject: true });
          copies.push({
            name: variantName(name, w),
            data: copy.data,
            width: copy.info.width,
            height: copy.info.height,
          });
        }
        variants = [...IMAGE_WIDTHS];
      } else {
        await decoder.stats();
      }
    } catch {
      throw unreadable();
    }
  }
  for (const copy of copies) {
    await deps.store.put(bucket, copy.name, copy.data, 'image/webp');
    await repo.upsertObject(deps.db, {
      bucket,
      name: copy.name,
      size: copy.data.length,
      contentType: 'image/webp',
      sha256: sha256(copy.data),
      width: copy.width,
      height: copy.height,
      uploadedBy: options.uploadedBy,
    });
  }
  await deps.store.put(bucket, name, bytes, contentType);
  const row = await repo.upsertObject(deps.db, {
    bucket,
    name,
    size: bytes.length,
    contentType,
    sha256: hash,
    width,
    height,
    variants,
    uploadedBy: options.uploadedBy,
  });
  return toMetadata(row);
}

export async function getMetadata(
  deps: StorageDeps,
  caller: Caller | null,
  bucket: string,
  rawName: string,
): Promise<repo.StorageObjectRow> {
  assertCanRead(bucket, caller);
  const row = await repo.findObject(deps.db, bucket, validateObjectName(rawName));
  if (!row) throw storageError('object-not-found');
  return row;
}

export async function openObject(deps: StorageDeps, row: repo.StorageObjectRow, range?: ByteRange) {
  const stream = await deps.store.read(row.bucket, row.name, range);
  if (!stream) throw storageError('object-not-found');
  return stream;
}

/** Deletes a file and its resized copies. */
export async function remove(
  deps: StorageDeps,
  caller: Caller | null,
  bucket: string,
  rawName: string,
): Promise<void> {
  assertCanWrite(bucket, caller);
  await removeObject(deps, bucket, rawName);
}

/** How many files a bucket holds under a name prefix (a folder). */
export function countObjects(deps: Pick<StorageDeps, 'db'>, bucket: string, prefix: string): Promise<number> {
  return repo.countObjects(deps.db, bucket, prefix);
}

/** The deletion of `remove`, without the caller check (the server's own clean-up). */
export async function removeObject(deps: StorageDeps, bucket: string, rawName: string): Promise<void> {
  const name = validateObjectName(rawName);
  const row = await repo.findObject(deps.db, bucket, name);
  if (!row) throw storageError('object-not-found');
  for (const w of row.variants) {
    await deps.store.delete(bucket, variantName(name, w));
    await repo.deleteObject(deps.db, bucket, variantName(name, w));
  }
  await deps.store.delete(bucket, name);
  await repo.deleteObject(deps.db, bucket, name);
}
