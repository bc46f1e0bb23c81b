import { readFileSync } from 'node:fs';
import { lockHolder } from '../library/scan/scan-lock.js';
import type { ConfigStore } from '../config/config-store.js';

export interface VersionInfo {
  current: string;
  latest_stable: string | null;
  latest_release: string | null;
  update_available: boolean;
  notifyUser: boolean;
  lockFileExists: boolean;
  lockReason: string | null;
  /** While a scan holds the lock: its kind (scan, refresh, …) and start (ISO 8601 UTC, for clients to show in their own time); null otherwise. */
  lockKind: string | null;
  lockStartedAt: string | null;
}

/**
 * `/api/version`. Works offline: no update server is contacted (the update check is off unless an
 * admin enables it, and kikoplay ships no remote check), so `update_available` is false. The lock
 * notice tells users a scan holds the library lock (`lockReason` for kikoeru clients; `lockKind` and
 * `lockStartedAt` for the web app, which shows the start in the viewer's time zone).
 */
export class SystemService {
  constructor(
    private readonly store: ConfigStore,
    readonly version_: string,
  ) {}

  async version(): Promise<VersionInfo> {
    const holder = await lockHolder(this.store.paths().lockFile);
    const lockReason = holder ? `媒体库正在扫描中（${holder.kind}，开始于 ${holder.startedAt || '?'}），部分作品信息可能暂不完整。` : null;
    return {
      current: this.version_,
      latest_stable: null,
      latest_release: null,
      update_available: false,
      notifyUser: this.store.get().checkUpdate,
      lockFileExists: lockReason !== null,
      lockReason,
      lockKind: holder ? holder.kind : null,
      lockStartedAt: holder?.startedAt || null,
    };
  }
}

let knownVersion: string | undefined;

/** The package's version (read once: answers of every request, e.g. the Subsonic envelope, carry it). */
export function packageVersion(): string {
  knownVersion ??= readPackageVersion();
  return knownVersion;
}

function readPackageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    if (pkg.version) return pkg.version;
  } catch {
    /* running from dist: one level deeper */
  }
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
