import type { PGliteOptions } from '@electric-sql/pglite';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_OPTIONS } from '../db/client.ts';

/**
 * PostgreSQL settings of the embedded database (PGlite) in the serving process, after PGlite's own
 * start parameters. Its defaults are a database server's: 128 MB of shared buffers, every page of
 * them written at start, in WebAssembly memory that is never given back. The shop's process is its
 * only user, and the kernel's page cache holds the data files' pages anyway, so 16 MB are enough:
 * the process starts about 110 MB smaller. docs/decisions/023-compiled-server-and-memory.md.
 */
export const EMBEDDED_DATABASE_SETTINGS: readonly string[] = ['-c', 'shared_buffers=16MB'];

/** PGlite's options for the serving process: the schema's extensions and the settings above. */
export function embeddedDatabaseOptions(): PGliteOptions {
  return { ...PGLITE_OPTIONS, startParams: [...PGlite.defaultStartParams, ...EMBEDDED_DATABASE_SETTINGS] };
}
