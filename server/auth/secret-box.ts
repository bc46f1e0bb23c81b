import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../config/load.js';
import { PRIVATE_FILE_MODE } from '../config/private-files.js';

/** The key file of the data dir that encrypts the Subsonic passwords (0600, made on first use). */
export const SUBSONIC_KEY_FILE = 'subsonic-key';

/**
 * Secrets that must be read back (the Subsonic password: the token form of the Subsonic API hashes
 * it with a salt of the client's choice, so it cannot be stored as a one-way hash). AES-256-GCM with a
 * 32-byte key kept in a file of the data dir (0600), so a copy of the database alone does not reveal
 * them. Sealed form: `iv.tag.ciphertext`, base64url.
 */
export class SecretBox {
  private key: Buffer | null = null;

  constructor(private readonly dataDir: string) {}

  private keyBytes(): Buffer {
    if (this.key) return this.key;
    const file = path.join(this.dataDir, SUBSONIC_KEY_FILE);
    if (existsSync(file)) {
      const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
      if (key.length === 32) return (this.key = key);
    }
    const key = randomBytes(32);
    writeFileAtomic(file, key.toString('base64url') + '\n', PRIVATE_FILE_MODE);
    return (this.key = key);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keyBytes(), iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
  }

  /** The plain text, or null when the sealed text is damaged or was sealed with another key. */
  open(sealed: string): string | null {
    const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    if (!iv || !tag || !data || iv.length !== 12 || tag.length !== 16) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.keyBytes(), iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
