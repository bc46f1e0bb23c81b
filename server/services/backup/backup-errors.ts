/**
 * Why a backup or a restore was refused, as a key and its parameters so the terminal says it in its
 * language (cli/i18n: `backup.errors`); `message` is the English form (logs of the scheduled backup).
 */
export type BackupProblem =
  | { key: 'noDatabase'; file: string }
  | { key: 'targetExists'; file: string }
  | { key: 'notBackup'; file: string; detail: string }
  | { key: 'truncated'; file: string }
  | { key: 'damaged'; file: string; detail: string }
  | { key: 'newerFormat'; file: string; version: number }
  | { key: 'newerMigration'; file: string; level: number; known: number }
  | { key: 'inUse'; dataDir: string }
  | { key: 'scanRunning'; dataDir: string; pid: number }
  | { key: 'notEmpty'; dataDir: string; found: string[] }
  | { key: 'integrity'; detail: string }
  | { key: 'badConfig'; detail: string }
  | { key: 'notDirectory'; path: string };

function problemMessage(p: BackupProblem): string {
  switch (p.key) {
    case 'noDatabase':
      return `there is no database to back up at ${p.file}`;
    case 'targetExists':
      return `${p.file} already exists; choose another file name`;
    case 'notBackup':
      return `${p.file} is not a kikoplay backup (${p.detail})`;
    case 'truncated':
      return `${p.file} is incomplete (truncated); nothing was restored`;
    case 'damaged':
      return `${p.file} is damaged (${p.detail}); nothing was restored`;
    case 'newerFormat':
      return `${p.file} was written in backup format ${p.version} by a newer kikoplay; update kikoplay to restore it`;
    case 'newerMigration':
      return `${p.file} holds a database of migration level ${p.level}, newer than this kikoplay knows (${p.known}); update kikoplay to restore it`;
    case 'inUse':
      return `the data dir ${p.dataDir} is in use by a running kikoplay (server, scan or command); stop it first`;
    case 'scanRunning':
      return `a scan is running on the data dir ${p.dataDir} (pid ${p.pid}); wait for it or stop it first`;
    case 'notEmpty':
      return `the data dir ${p.dataDir} already holds ${p.found.join(', ')}; restore into an empty data dir, or add --force to replace them (they are kept aside)`;
    case 'integrity':
      return `the database in the backup fails the integrity check: ${p.detail}; nothing was restored`;
    case 'badConfig':
      return `the config.json in the backup is not valid for this kikoplay: ${p.detail}; nothing was restored`;
    case 'notDirectory':
      return `${p.path} is not a folder`;
  }
}

export class BackupError extends Error {
  constructor(readonly problem: BackupProblem) {
    super(problemMessage(problem));
  }
}
