import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

export interface ByteRange {
  readonly start: number;
  /** Inclusive. */
  readonly end: number;
}

/** Where object bytes live. Metadata (size, type, hash) is in the database. */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  put(bucket: string, name: string, bytes: Buffer, contentType: string): Promise<void>;
  /** A stream of the bytes (or a range of them), or null when missing. */
  read(bucket: string, name: string, range?: ByteRange): Promise<Readable | null>;
  delete(bucket: string, name: string): Promise<void>;
}

/** Files under DATA_DIR/storage/<bucket>/<name>; written to a temp file, then renamed. */
export function localStore(root: string): ObjectStore {
  const resolve = (bucket: string, name: string) => {
    const full = path.resolve(root, bucket, name);
    // Names are validated before they get here; this is a second lock on the door.
    if (!full.startsWith(path.resolve(root) + path.sep))
      throw new Error('object path escapes the storage root');
    return full;
  };
  return {
    kind: 'local',
    async put(bucket, name, bytes) {
      const file = resolve(bucket, name);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await fsp.writeFile(temp, bytes);
      await fsp.rename(temp, file);
    },
    async read(bucket, name, range) {
      const file = resolve(bucket, name);
      try {
        await fsp.access(file);
      } catch {
        return null;
      }
      return fs.createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
    async delete(bucket, name) {
      await fsp.rm(resolve(bucket, name), { force: true });
    },
  };
}

export interface S3Settings {
  readonly endpoint: string;
  readonly bucket: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly forcePathStyle: boolean;
}

/** Any S3-compatible service; every shop bucket is a key prefix inside one S3 bucket. */
export function s3Store(
  settings: S3Settings,
  client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  }),
): ObjectStore {
  const key = (bucket: string, name: string) => `${bucket}/${name}`;
  return {
    kind: 's3',
    async put(bucket, name, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: settings.bucket,
          Key: key(bucket, name),
          Body: bytes,
          ContentType: contentType,
        }),
      );
    },
    async read(bucket, name, range) {
      try {
        const out = await client.send(
          new GetObjectCommand({
            Bucket: settings.bucket,
            Key: key(bucket, name),
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        return out.Body instanceof Readable ? out.Body : Readable.from(out.Body as AsyncIterable<Uint8Array>);
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async delete(bucket, name) {
      await client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key(bucket, name) }));
    },
  };
}
