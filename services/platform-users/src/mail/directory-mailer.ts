// The embedded mode's mail: each message becomes an RFC 5322 .eml file in a private directory
// (written under a temporary name and renamed, so a reader never sees half a message), kept until
// the pruning job finds it older than the mail's retention.
import { randomUUID } from 'node:crypto';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { ensurePrivateDirectory, writeNewPrivateFile } from '@voice/runtime/private-files';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { MailMessage, Mailer } from './mailer.js';

export class DirectoryMailer implements Mailer {
  private readonly transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  private constructor(private readonly directory: string) {}

  /** Creates the directory (0700) at once, so operators find it before the first message. */
  static async open(directory: string): Promise<DirectoryMailer> {
    ensurePrivateDirectory(directory);
    return new DirectoryMailer(directory);
  }

  /** Resolves with the path of the file written. */
  async write(message: MailMessage): Promise<string> {
    const info = await this.transport.sendMail({ ...message, disableFileAccess: true, disableUrlAccess: true });
    const raw = info.message;
    if (!Buffer.isBuffer(raw)) throw new Error('the stream transport did not answer a buffered message');
    // Recreated if someone removed it meanwhile.
    ensurePrivateDirectory(this.directory);
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
    const temporary = join(this.directory, `.${name}.tmp`);
    const path = join(this.directory, name);
    try {
      writeNewPrivateFile(temporary, raw);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return path;
  }

  /**
   * Deletes at most `limit` messages written before `before` (their files' modification time),
   * the oldest first; answers how many. Files that are not messages are left alone.
   */
  async prune(before: string, limit: number): Promise<number> {
    const cutOff = Date.parse(before);
    const names = (await readdir(this.directory).catch(() => [])).filter((name) => name.endsWith('.eml') && !name.startsWith('.'));
    const old: { path: string; writtenAt: number }[] = [];
    for (const name of names) {
      const path = join(this.directory, name);
      const writtenAt = (await stat(path).catch(() => undefined))?.mtimeMs;
      if (writtenAt !== undefined && writtenAt < cutOff) old.push({ path, writtenAt });
    }
    const doomed = old.sort((a, b) => a.writtenAt - b.writtenAt).slice(0, limit);
    for (const { path } of doomed) await rm(path, { force: true });
    return doomed.length;
  }

  async send(message: MailMessage): Promise<void> {
    await this.write(message);
  }

  close(): void {
    this.transport.close();
  }
}
