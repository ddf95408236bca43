/** URLs of the storage service (shape /b/{bucket}/o/{path}, docs/product-rules.md#http-behaviour); no dependencies. */
export const STORAGE_PREFIX = '/api/storage';

/** Widths of the WebP copies made for product images. */
export const IMAGE_WIDTHS = [320, 640, 1280] as const;

export function variantName(name: string, width: number): string {
  return `${name}@${width}.webp`;
}

export function objectUrl(bucket: string, name: string): string {
  return `${STORAGE_PREFIX}/b/${encodeURIComponent(bucket)}/o/${encodeURIComponent(name)}?alt=media`;
}

export function imageSrcSet(bucket: string, name: string, widths: readonly number[] = IMAGE_WIDTHS): string {
  return widths.map((w) => `${objectUrl(bucket, variantName(name, w))} ${w}w`).join(', ');
}

/** A stored file's metadata, as the storage API answers it (and the uploader receives it). */
export interface StorageObjectMetadata {
  bucket: string;
  name: string;
  size: number;
  contentType: string;
  etag: string;
  updated: string;
  width: number | null;
  height: number | null;
  /** Widths of the resized WebP copies (name@{width}.webp). */
  variants: number[];
}
