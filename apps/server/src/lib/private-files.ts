import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the embedded database (password hashes, bank accounts, addresses), the stored
 * files and the command-line token: readable by the shop's own user only. The process's umask
 * becomes 077 (files 0600, folders 0700; the child processes it starts inherit it), and what is
 * wider is tightened: what an older version left, and PGlite's files, which it sets to 0666
 * itself whatever the umask (the server calls this again once the database is open). A file PGlite
 * adds later lies in a 0700 folder nobody else can enter, and is tightened at the next start.
 * docs/decisions/031-backup-privacy.md.
 */
export function keepDataPrivate(dataDir: string): void {
  process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true });
  tighten(dataDir);
}

/** chmod 0700 for folders and 0600 for files under `dir`, itself included; links are left alone. */
function tighten(dir: string): void {
  fs.chmodSync(dir, 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) tighten(full);
    else if (entry.isFile() && (fs.statSync(full).mode & 0o077) !== 0) fs.chmodSync(full, 0o600);
  }
}
