import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { BackupError } from './archive.ts';

/**
 * An encrypted backup (BACKUP_ENCRYPTION_KEY): the plain tar archive sealed with AES-256-GCM.
 *
 *   magic      24 bytes  "shanlan-backup-aes256gcm" (says what the file is, to a person and to restore)
 *   version     1 byte   1
 *   key check  16 bytes  HMAC-SHA256(key, "shanlan-backup key check"), cut: a wrong key is named
 *                        before anything is decrypted, without revealing the key
 *   iv         12 bytes  random for every backup
 *   ciphertext …
 *   tag        16 bytes  GCM's authentication tag: any changed byte fails the whole file
 *
 * The key itself is never stored. docs/decisions/031-backup-privacy.md.
 */
export const ENCRYPTED_MAGIC = Buffer.from('shanlan-backup-aes256gcm', 'ascii');
const VERSION = 1;
const CHECK_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = ENCRYPTED_MAGIC.length + 1 + CHECK_BYTES + IV_BYTES;

const keyCheck = (key: Buffer) =>
  createHmac('sha256', key).update('shanlan-backup key check').digest().subarray(0, CHECK_BYTES);

/** A transform that seals what passes through it; the tag is written after the last byte. */
export function encryptStream(key: Buffer): Transform {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  let headerSent = false;
  const header = () => {
    if (headerSent) return [];
    headerSent = true;
    return [Buffer.concat([ENCRYPTED_MAGIC, Buffer.from([VERSION]), keyCheck(key), iv])];
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (const part of header()) this.push(part);
      done(null, cipher.update(chunk));
    },
    flush(done) {
      for (const part of header()) this.push(part);
      this.push(cipher.final());
      done(null, cipher.getAuthTag());
    },
  });
}

/** Whether a file starts like an encrypted backup. */
export function isEncrypted(file: string): boolean {
  const head = Buffer.alloc(ENCRYPTED_MAGIC.length);
  const fd = fs.openSync(file, 'r');
  try {
    return fs.readSync(fd, head, 0, head.length, 0) === head.length && head.equals(ENCRYPTED_MAGIC);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The archive's plain bytes as a stream: the file itself when it is not encrypted, else the file
 * decrypted with `key`. A missing or wrong key is refused at once; a changed byte makes the stream
 * fail at its end (GCM checks the tag last), so a caller reads the whole stream before trusting it.
 */
export function openArchiveBytes(file: string, key: Buffer | undefined): Readable {
  if (!isEncrypted(file)) return fs.createReadStream(file);
  if (!key)
    throw new BackupError('This backup is encrypted: set BACKUP_ENCRYPTION_KEY to the key it was made with.');
  const { size } = fs.statSync(file);
  if (size < HEADER_BYTES + TAG_BYTES)
    throw new BackupError('This encrypted backup is incomplete (cut off before its end).');
  const fd = fs.openSync(file, 'r');
  const header = Buffer.alloc(HEADER_BYTES);
  const tag = Buffer.alloc(TAG_BYTES);
  try {
    fs.readSync(fd, header, 0, HEADER_BYTES, 0);
    fs.readSync(fd, tag, 0, TAG_BYTES, size - TAG_BYTES);
  } finally {
    fs.closeSync(fd);
  }
  const version = header[ENCRYPTED_MAGIC.length];
  if (version !== VERSION)
    throw new BackupError(
      `This encrypted backup has format version ${version}; this copy of the shop reads version ${VERSION}.`,
    );
  const check = header.subarray(ENCRYPTED_MAGIC.length + 1, ENCRYPTED_MAGIC.length + 1 + CHECK_BYTES);
  if (!timingSafeEqual(check, keyCheck(key)))
    throw new BackupError(
      'BACKUP_ENCRYPTION_KEY is not the key this backup was made with; nothing was changed.',
    );
  const decipher = createDecipheriv('aes-256-gcm', key, header.subarray(HEADER_BYTES - IV_BYTES));
  decipher.setAuthTag(tag);
  const source = fs.createReadStream(file, { start: HEADER_BYTES, end: size - TAG_BYTES - 1 });
  const plain = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, decipher.update(chunk));
    },
    flush(done) {
      try {
        done(null, decipher.final());
      } catch {
        done(
          new BackupError(
            'This encrypted backup is damaged: its authentication tag does not match (a changed or cut-off file).',
          ),
        );
      }
    },
  });
  source.on('error', (error) => plain.destroy(error));
  return source.pipe(plain);
}
