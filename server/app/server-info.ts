/**
 * `<data-dir>/server.json`: which process serves this data dir, on which port (written by `kikoplay serve`
 * once it listens, removed when it stops). `kikoplay doctor` reads it to tell "the port is taken by this
 * data dir's own server" from "taken by another program". A file left by a killed server names a process
 * that is gone: readers check that the process lives.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../config/load.js';
import { PRIVATE_FILE_MODE } from '../config/private-files.js';

export interface ServerInfo {
  pid: number;
  port: number;
  host: string | null;
  url: string;
  version: string;
  startedAt: string;
}

export const serverInfoPath = (dataDir: string) => path.join(dataDir, 'server.json');

export function writeServerInfo(dataDir: string, info: ServerInfo): void {
  writeFileAtomic(serverInfoPath(dataDir), JSON.stringify(info) + '\n', PRIVATE_FILE_MODE);
}

/** Remove the file when it is this process's own. */
export function removeServerInfo(dataDir: string, pid = process.pid): void {
  if (readServerInfo(dataDir)?.pid === pid) rmSync(serverInfoPath(dataDir), { force: true });
}

/** The server of this data dir when its process still runs; null otherwise. */
export function readServerInfo(dataDir: string): ServerInfo | null {
  let info: ServerInfo;
  try {
    info = JSON.parse(readFileSync(serverInfoPath(dataDir), 'utf8')) as ServerInfo;
  } catch {
    return null;
  }
  if (!Number.isInteger(info?.pid) || !Number.isInteger(info.port)) return null;
  return processLives(info.pid) ? info : null;
}

function processLives(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it lives, as another user
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
