import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { HashQueue } from './hash-queue.js';

/**
 * scrypt cost: OWASP's Password Storage Cheat Sheet lists N=2^17, r=8, p=1 (128 MiB) and options of
 * equal strength with less memory; this is the N=2^14, r=8, p=5 one: 16 MiB per hash (128·N·r), so
 * the two hashes the queue runs at a time stay at 32 MiB however many logins arrive.
 */
export const SCRYPT_COST = { N: 16384, r: 8, p: 5 } as const;
const KEYLEN = 32;
const SALT_BYTES = 16;
/** The most memory a stored hash may ask for (its own N and r); more is treated as a bad hash. */
const MAX_HASH_MEMORY = 64 * 1024 * 1024;

/**
 * Hashes at a time: one core's worth less than the machine has, at most two (one on a 2-core host,
 * so a login flood leaves a core to everything else); 16 more waiting; beyond that logins are
 * answered 503 with Retry-After.
 */
const queue = new HashQueue(Math.max(1, Math.min(2, availableParallelism() - 1)), 16);

/**
 * Verified when the name is unknown, so that an unknown name costs the same scrypt work as a known
 * one. No password leads to this hash (its key came from a discarded random string).
 */
const DUMMY_HASH = `scrypt$${SCRYPT_COST.N}$${SCRYPT_COST.r}$${SCRYPT_COST.p}$NkQlZEzNki7av6PGUL344g==$wgdMbhMjaR9ZjRyBcpViLOxO9AlqMc6+NXTfFca01eI=`;

interface StoredHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  queue.run(() => new Promise<Buffer>((resolve, reject) => scryptCb(password.normalize('NFC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key)))));

const maxmem = (N: number, r: number, p: number) => 128 * r * (N + p + 2) + 1024 * 1024;

/** `scrypt$N$r$p$salt$hash` (base64) with sane numbers, or null. */
function parse(stored: string): StoredHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [, n, r, p, saltB64, keyB64] = parts;
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  const powerOfTwo = Number.isInteger(N) && N >= 2 && (N & (N - 1)) === 0;
  if (!powerOfTwo || !Number.isInteger(R) || R < 1 || !Number.isInteger(P) || P < 1 || P > 64) return null;
  if (128 * N * R > MAX_HASH_MEMORY) return null;
  const salt = Buffer.from(saltB64, 'base64');
  const key = Buffer.from(keyB64, 'base64');
  if (salt.length < 8 || key.length < 16 || key.length > 128) return null;
  return { N, r: R, p: P, salt, key };
}

/** scrypt at SCRYPT_COST with a per-user random salt: `scrypt$N$r$p$salt$hash` (base64). */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = SCRYPT_COST;
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, KEYLEN, { N, r, p, maxmem: maxmem(N, r, p) });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * Checks a password against a stored hash, with the cost the hash was made with. Without a stored
 * hash (unknown name) or with a malformed one, a fixed dummy hash is verified instead so the answer
 * takes the same work, and the result is false.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const legacy = stored === undefined ? null : parseLegacy(stored);
  if (legacy) {
    // the same scrypt work as any other login, so the answer's time does not tell a legacy hash apart
    await verifyPassword(password, undefined);
    const key = createHash('md5')
      .update(password + legacy.salt, 'utf8')
      .digest();
    return timingSafeEqual(key, legacy.key);
  }
  const parsed = stored === undefined ? null : parse(stored);
  const { N, r, p, salt, key: expected } = parsed ?? parse(DUMMY_HASH)!;
  const key = await scrypt(password, salt, expected.length, { N, r, p, maxmem: maxmem(N, r, p) });
  return parsed !== null && timingSafeEqual(key, expected);
}

/**
 * A password hash brought over from kikoeru by `kikoplay import kikoeru`: `kikoeru-md5$<salt>$<hex>`, where
 * hex = md5(UTF-8(password + salt)) and the salt is that installation's `md5secret`. It verifies the old
 * password once; the login then stores an scrypt hash in its place (needsRehash is true for it).
 */
export const LEGACY_KIKOERU_PREFIX = 'kikoeru-md5';

export function legacyKikoeruHash(md5Hex: string, salt: string): string {
  return [LEGACY_KIKOERU_PREFIX, salt, md5Hex.toLowerCase()].join('$');
}

function parseLegacy(stored: string): { salt: string; key: Buffer } | null {
  if (!stored.startsWith(`${LEGACY_KIKOERU_PREFIX}$`)) return null;
  const rest = stored.slice(LEGACY_KIKOERU_PREFIX.length + 1);
  const cut = rest.lastIndexOf('$');
  if (cut < 0) return null;
  const salt = rest.slice(0, cut);
  const hex = rest.slice(cut + 1);
  if (!salt || !/^[0-9a-f]{32}$/.test(hex)) return null;
  return { salt, key: Buffer.from(hex, 'hex') };
}

/**
 * No password leads to it: stored for an imported account whose kikoeru password was still the default
 * `admin`, until an admin sets a new one (`kikoplay user passwd`). Never a valid scrypt or legacy hash.
 */
export const NO_PASSWORD_HASH = '!no-password: set one with kikoplay user passwd';

/** True when a stored hash is cheaper than SCRYPT_COST (in memory or in total work) or malformed. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  const { N, r, p } = SCRYPT_COST;
  return parsed.N * parsed.r < N * r || parsed.N * parsed.r * parsed.p < N * r * p || parsed.key.length < KEYLEN;
}

/** Hashes started since the process began, and how many run and wait now (tests, diagnostics). */
export const passwordHashStats = () => queue.stats();

/** A random password readable enough to type once (used for the first admin). */
export function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}
