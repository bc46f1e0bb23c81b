import { createHash, randomBytes } from 'node:crypto';
import { badRequest, conflict, notFound, unauthorized } from '../domain/errors.js';
import { sqlNow } from '../domain/time.js';
import type { WorkerTokensRepo } from '../db/repos/worker-tokens-repo.js';
import { hasControlChars } from '../domain/text-rules.js';

/** Every worker token starts with this, so the auth middleware can tell it from a login JWT. */
export const WORKER_TOKEN_PREFIX = 'kpw_';

export const isWorkerToken = (token: string): boolean => token.startsWith(WORKER_TOKEN_PREFIX);

/** Who a worker token belongs to. */
export interface WorkerIdentity {
  name: string;
}

export interface WorkerTokenInfo {
  name: string;
  created_at: string;
  last_used_at: string | null;
  revoked: boolean;
}

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const NAME = /^[^\s/\\]{1,64}$/u;

/** last_used_at is written at most this often per token. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Long-lived credentials for transcription workers (`kikoplay worker-token create NAME`). A token is
 * shown once; only its sha256 is stored. It authenticates the five worker endpoints and nothing else.
 */
export class WorkerTokensService {
  private readonly touched = new Map<number, number>();

  constructor(private readonly repo: WorkerTokensRepo) {}

  private checkName(name: string): string {
    const n = name.trim();
    if (!NAME.test(n) || hasControlChars(n)) throw badRequest(`工作节点名称无效: "${name}"（1–64 个字符，不能包含空白、控制字符或斜杠）`, { code: 'WORKER_NAME_INVALID', field: 'name' });
    return n;
  }

  /** Create a token for `name`; returns the token (the only time it is visible). */
  async create(name: string): Promise<{ name: string; token: string }> {
    const n = this.checkName(name);
    const token = WORKER_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    if (!(await this.repo.create(n, hashToken(token), sqlNow()))) {
      throw conflict(`工作节点令牌 "${n}" 已存在；如需重新签发，请先撤销它`, { code: 'WORKER_TOKEN_EXISTS' });
    }
    return { name: n, token };
  }

  /** A token under a fresh name `<prefix>-<UTC date and time>-<4 hex>` (the AI centre's button). */
  async createGenerated(prefix: string): Promise<{ name: string; token: string }> {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    return this.create(`${prefix}-${stamp}-${randomBytes(2).toString('hex')}`);
  }

  async list(): Promise<WorkerTokenInfo[]> {
    return (await this.repo.list()).map((r) => ({ name: r.name, created_at: r.created_at, last_used_at: r.last_used_at, revoked: r.revoked !== 0 }));
  }

  async revoke(name: string): Promise<void> {
    const n = name.trim();
    if (!(await this.repo.revoke(n))) throw notFound(`没有名为 "${n}" 的有效工作节点令牌`, { code: 'WORKER_TOKEN_NOT_FOUND' });
  }

  /** The worker a token belongs to; a 401 for an unknown or revoked token. Revocation applies at once. */
  async authenticate(token: string): Promise<WorkerIdentity> {
    const row = isWorkerToken(token) ? await this.repo.activeByHash(hashToken(token)) : undefined;
    if (!row) throw unauthorized('工作节点令牌无效或已被撤销', { code: 'WORKER_TOKEN_INVALID' });
    const now = Date.now();
    if (now - (this.touched.get(row.id) ?? 0) >= TOUCH_EVERY_MS) {
      this.touched.set(row.id, now);
      await this.repo.touch(row.id, sqlNow());
    }
    return { name: row.name };
  }
}
