import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { extract, pack, type Pack } from 'tar-stream';
import { z } from 'zod';

/**
 * The backup archive: one plain tar file.
 *
 *   backup.json                 the manifest, always first: format, version, engine, how the
 *                               database was dumped, its migration level
 *   database/…                  the database (see dump.ts for each kind)
 *   storage/<bucket>/<name>     the stored files, as they lie under DATA_DIR/storage
 *   end.json                    always last: size and SHA-256 of every entry before it
 *
 * A restore reads the archive twice: first to check it whole (a cut-off or damaged file is refused
 * before anything is written), then to put it back.
 */
export const ARCHIVE_FORMAT = 'shanlan-backup';
export const ARCHIVE_VERSION = 1;
export const MANIFEST_ENTRY = 'backup.json';
export const END_ENTRY = 'end.json';

export const DatabaseDumpKind = z.enum(['pglite-datadir', 'pg-dump', 'logical']);
export type DatabaseDumpKind = z.infer<typeof DatabaseDumpKind>;

export const Manifest = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.number().int().min(1),
  createdAt: z.string(),
  engine: z.enum(['pglite', 'postgres']),
  database: DatabaseDumpKind,
  /** How many migrations the database had applied, and the hash of the last one. */
  migrations: z.object({ count: z.number().int().min(0), lastHash: z.string().nullable() }),
  /** Where the shop kept its files; `s3` archives hold none (the bucket keeps its own copies). */
  storage: z.enum(['local', 's3']),
});
export type Manifest = z.infer<typeof Manifest>;

const EntrySum = z.object({ size: z.number().int().min(0), sha256: z.string() });
export const EndRecord = z.object({
  entries: z.record(z.string(), EntrySum),
  files: z.number().int().min(0),
  fileBytes: z.number().int().min(0),
});
export type EndRecord = z.infer<typeof EndRecord>;

/** A refusal with a message for the operator (the command prints it and exits 1). */
export class BackupError extends Error {
  override name = 'BackupError';
}

export const STORAGE_PREFIX = 'storage/';

/** Writes entries one after another into a tar stream, recording each one's size and hash. */
export class ArchiveWriter {
  /** The archive's bytes, for a file or an HTTP response. */
  readonly output = new PassThrough();
  private readonly tar: Pack = pack();
  private readonly sums: Record<string, { size: number; sha256: string }> = {};
  private files = 0;
  private fileBytes = 0;
  private finished = false;
  /** Rejects when the reader went away (a closed response): every pending write gives up then. */
  private readonly aborted: Promise<never>;

  constructor() {
    this.tar.pipe(this.output as unknown as NodeJS.WritableStream);
    this.aborted = new Promise<never>((_resolve, reject) => {
      this.output.on('close', () => {
        if (!this.finished) reject(new Error("the archive's reader went away before it was finished"));
      });
    });
    this.aborted.catch(() => {});
  }

  private entry(name: string, size: number, body?: Buffer) {
    return new Promise<void>((resolve, reject) => {
      const done = (err?: Error | null) => (err ? reject(err) : resolve());
      if (body) this.tar.entry({ name, size }, body, done);
      else this.sink = this.tar.entry({ name, size }, done);
    });
  }

  private sink: ReturnType<Pack['entry']> | null = null;

  async add(name: string, body: Buffer | string): Promise<void> {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    this.sums[name] = { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    await Promise.race([this.entry(name, bytes.length, bytes), this.aborted]);
  }

  /**
   * Adds a file from disk. The size is taken from the open file, and exactly that many bytes are
   * copied, so a file replaced meanwhile (uploads are written aside, then renamed) is read whole.
   * False when the file was deleted since it was listed.
   */
  async addFile(name: string, file: string, counted = true): Promise<boolean> {
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      const hash = createHash('sha256');
      const written = this.entry(name, size);
      const sink = this.sink!;
      if (size > 0) {
        for await (const chunk of handle.createReadStream({
          start: 0,
          end: size - 1,
          autoClose: false,
        }) as AsyncIterable<Buffer>) {
          hash.update(chunk);
          if (!sink.write(chunk))
            await Promise.race([once(sink as unknown as NodeJS.EventEmitter, 'drain'), this.aborted]);
        }
      }
      (sink as unknown as NodeJS.WritableStream).end();
      await Promise.race([written, this.aborted]);
      this.sums[name] = { size, sha256: hash.digest('hex') };
      if (counted) {
        this.files += 1;
        this.fileBytes += size;
      }
      return true;
    } finally {
      await handle.close();
    }
  }

  /** Writes end.json and ends the tar. */
  async finish(): Promise<EndRecord> {
    const record: EndRecord = { entries: this.sums, files: this.files, fileBytes: this.fileBytes };
    const bytes = Buffer.from(JSON.stringify(record));
    await Promise.race([this.entry(END_ENTRY, bytes.length, bytes), this.aborted]);
    this.finished = true;
    this.tar.finalize();
    return record;
  }

  /** Breaks the archive off, so its reader sees an error instead of a file that looks whole. */
  fail(error: Error): void {
    this.finished = true;
    this.tar.destroy(error);
    this.output.destroy(error);
  }
}

export interface ArchiveEntry {
  readonly name: string;
  readonly size: number;
  readonly stream: Readable;
}

/** Opens the archive's plain tar bytes afresh (a file, or one decrypted on the way: encryption.ts). */
export type ArchiveSource = () => Readable;

/**
 * Calls `onEntry` for each entry of the archive in order; the callback must read the entry's stream
 * to its end (or not touch it: it is then skipped).
 */
export async function forEachEntry(
  open: ArchiveSource,
  onEntry: (entry: ArchiveEntry) => Promise<void>,
): Promise<void> {
  const reader = extract();
  const source = open();
  source.on('error', (error) => reader.destroy(error));
  source.pipe(reader as unknown as NodeJS.WritableStream);
  try {
    for await (const entry of reader) {
      await onEntry({
        name: entry.header.name,
        size: entry.header.size ?? 0,
        stream: entry as unknown as Readable,
      });
      entry.resume();
    }
  } finally {
    source.destroy();
  }
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Checks the manifest's format and version; the messages say what the archive is instead. */
export function parseManifest(bytes: Buffer): Manifest {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BackupError('This file is not a backup of this shop (its backup.json cannot be read).');
  }
  const head = z.object({ format: z.string(), version: z.number() }).safeParse(raw);
  if (!head.success || head.data.format !== ARCHIVE_FORMAT)
    throw new BackupError('This file is not a backup of this shop.');
  if (head.data.version > ARCHIVE_VERSION) {
    throw new BackupError(
      `This backup has format version ${head.data.version}; this copy of the shop reads up to version ${ARCHIVE_VERSION}. Restore it with the newer version that made it.`,
    );
  }
  const manifest = Manifest.safeParse(raw);
  if (!manifest.success)
    throw new BackupError(
      `This backup's backup.json is damaged: ${manifest.error.issues.map((i) => i.path.join('.')).join(', ')}.`,
    );
  return manifest.data;
}

export interface CheckedArchive {
  readonly manifest: Manifest;
  readonly end: EndRecord;
}

/**
 * Reads the whole archive once: the manifest must come first and pass `checkManifest`, every entry
 * must match the size and hash end.json records, and end.json must be there (else the file was cut
 * off). Nothing is written.
 */
export async function checkArchive(
  open: ArchiveSource,
  checkManifest: (manifest: Manifest) => void,
): Promise<CheckedArchive> {
  let manifest: Manifest | null = null;
  let end: EndRecord | null = null;
  const seen: Record<string, { size: number; sha256: string }> = {};
  try {
    await forEachEntry(open, async (entry) => {
      if (end) throw new BackupError('This backup has entries after its end record; it is damaged.');
      if (!manifest) {
        if (entry.name !== MANIFEST_ENTRY)
          throw new BackupError(
            'This file is not a backup of this shop (it does not start with backup.json).',
          );
        const bytes = await readAll(entry.stream);
        manifest = parseManifest(bytes);
        checkManifest(manifest);
        seen[entry.name] = { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
        return;
      }
      if (entry.name === END_ENTRY) {
        const parsed = EndRecord.safeParse(JSON.parse((await readAll(entry.stream)).toString('utf8')));
        if (!parsed.success) throw new BackupError("This backup's end record is damaged.");
        end = parsed.data;
        return;
      }
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of entry.stream as AsyncIterable<Buffer>) {
        hash.update(chunk);
        size += chunk.length;
      }
      seen[entry.name] = { size, sha256: hash.digest('hex') };
    });
  } catch (error) {
    if (error instanceof BackupError) throw error;
    if (!manifest) throw new BackupError('This file is not a backup of this shop (it is not a tar archive).');
    throw new BackupError(
      `This backup is incomplete (cut off or damaged): ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
  if (!manifest) throw new BackupError('This file is not a backup of this shop (it is empty).');
  if (!end) throw new BackupError('This backup is incomplete: it was cut off before its end record.');
  const record: EndRecord = end;
  for (const [name, sum] of Object.entries(record.entries)) {
    const got = seen[name];
    if (!got) throw new BackupError(`This backup is incomplete: ${name} is missing.`);
    if (got.size !== sum.size || got.sha256 !== sum.sha256)
      throw new BackupError(`This backup is damaged: ${name} does not match its checksum.`);
  }
  for (const name of Object.keys(seen)) {
    if (name !== MANIFEST_ENTRY && !record.entries[name])
      throw new BackupError(`This backup is damaged: ${name} is not in its end record.`);
  }
  return { manifest, end: record };
}
