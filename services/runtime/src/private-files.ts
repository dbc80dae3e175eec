// The one place that creates what the services keep under DATA_DIR (SQLite databases and their
// WAL files, generated keys, the mail spool): directories 0700 and files 0600, so another account
// on the host reads none of it. Files and directories of an older start are tightened too.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';

export const privateDirectoryMode = 0o700;
export const privateFileMode = 0o600;

/** chmod, except where the operator gave us a directory we do not own (EPERM): theirs to secure. */
function tighten(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EPERM') throw error;
  }
}

/** Creates the directory (and its parents) 0700, or tightens it to 0700. */
export function ensurePrivateDirectory(directory: string): void {
  mkdirSync(directory, { recursive: true, mode: privateDirectoryMode });
  tighten(directory, privateDirectoryMode);
}

/** Creates the file empty (0600) unless it exists, and tightens it to 0600 either way. */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', privateFileMode));
  tighten(file, privateFileMode);
}

/** Writes a new file 0600; refuses to replace one that exists. */
export function writeNewPrivateFile(file: string, content: string | Buffer): void {
  writeFileSync(file, content, { mode: privateFileMode, flag: 'wx' });
  tighten(file, privateFileMode);
}

/** Tightens the files that exist among these (SQLite's -wal and -shm of an older start). */
export function tightenExistingFiles(files: readonly string[]): void {
  for (const file of files) if (existsSync(file)) tighten(file, privateFileMode);
}
