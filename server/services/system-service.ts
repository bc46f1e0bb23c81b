import { existsSync, readFileSync } from 'node:fs';
import type { ConfigStore } from '../config/config-store.js';

export interface VersionInfo {
  current: string;
  latest_stable: string | null;
  latest_release: string | null;
  update_available: boolean;
  notifyUser: boolean;
  lockFileExists: boolean;
  lockReason: string | null;
}

/**
 * `/api/version`. Works offline: no update server is contacted (the update check is off unless an
 * admin enables it, and kikoplay ships no remote check), so `update_available` is false. The lock
 * notice tells users a scan holds the library lock.
 */
export class SystemService {
  constructor(
    private readonly store: ConfigStore,
    readonly version_: string,
  ) {}

  async version(): Promise<VersionInfo> {
    const lock = this.store.paths().lockFile;
    let lockReason: string | null = null;
    if (existsSync(lock)) {
      try {
        const info = JSON.parse(readFileSync(lock, 'utf8')) as { pid?: number; kind?: string; startedAt?: string };
        if (info.pid && isAlive(info.pid)) lockReason = `媒体库正在扫描中（${info.kind ?? 'scan'}，开始于 ${info.startedAt ?? '?'}），部分作品信息可能暂不完整。`;
      } catch {
        lockReason = null;
      }
    }
    return {
      current: this.version_,
      latest_stable: null,
      latest_release: null,
      update_available: false,
      notifyUser: this.store.get().checkUpdate,
      lockFileExists: lockReason !== null,
      lockReason,
    };
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function packageVersion(): string {
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
