/**
 * What `kikoplay doctor` finds: one finding per fact checked, with its status and the parameters the
 * terminal's catalogues (cli/i18n: `doctor.findings`) turn into a sentence saying what to do.
 */

export type DoctorStatus = 'ok' | 'warning' | 'problem';

/** The check a finding belongs to. */
export type DoctorCheck = 'config' | 'dataDir' | 'disk' | 'database' | 'migrations' | 'sqlite' | 'ffprobe' | 'rootFolder' | 'port';

/** Each finding's key and its parameters (paths, numbers and system error codes; never secrets). */
export interface FindingParams {
  configOk: { file: string };
  configDefaults: { file: string };
  configInvalid: { reason: string };
  dataDirOk: { path: string; mode: string };
  dataDirMissing: { path: string };
  dataDirNotFolder: { path: string };
  dataDirUnderFile: { path: string; file: string };
  dbFolderNotFolder: { file: string; folder: string };
  dataDirNoAccess: { path: string; code: string };
  dataDirOpen: { path: string; mode: string };
  secretFileOpen: { file: string; mode: string };
  fileNoAccess: { file: string; code: string };
  diskOk: { path: string; free: string };
  diskLow: { path: string; free: string; min: string };
  diskFull: { path: string; free: string };
  dbMissing: { file: string };
  dbOk: { file: string };
  dbDamaged: { file: string; detail: string };
  dbUnreadable: { file: string; detail: string };
  migrationsOk: { level: number };
  migrationsPending: { applied: number; latest: number; count: number };
  migrationsNewer: { applied: number; latest: number; migrations: string };
  sqliteOk: { version: string };
  sqliteNoTrigram: { version: string; reason: string };
  ffprobeOk: { path: string; version: string };
  ffprobeBroken: { path: string; reason: string };
  rootsNone: Record<string, never>;
  rootOk: { name: string; path: string; works: number };
  rootReadOnly: { name: string; path: string; works: number };
  rootMissing: { name: string; path: string; works: number };
  rootUnreadable: { name: string; path: string; code: string; works: number };
  portFree: { port: number; host: string };
  portOurs: { port: number; pid: number; since: string };
  portOther: { port: number; host: string };
  portNoPermission: { port: number };
}

export type FindingKey = keyof FindingParams;

export type Finding = { [K in FindingKey]: { check: DoctorCheck; status: DoctorStatus; key: K; params: FindingParams[K] } }[FindingKey];

export const finding = <K extends FindingKey>(check: DoctorCheck, status: DoctorStatus, key: K, params: FindingParams[K]): Finding => ({ check, status, key, params }) as Finding;

/** An access mode as chmod writes it (0700). */
export const octal = (mode: number) => '0' + (mode & 0o777).toString(8).padStart(3, '0');

/** A size in bytes, for people (MB/GB, decimal). */
export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} GB`;
  return `${Math.round(n / 1e6)} MB`;
}
