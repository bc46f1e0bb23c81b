// Compiles server/ and cli/ to dist/ and copies the SQL migrations and static assets next to them.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
for (const dir of ['dist/server', 'dist/cli']) rmSync(path.join(root, dir), { recursive: true, force: true });
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const res = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (res.status !== 0) process.exit(res.status ?? 1);
cpSync(path.join(root, 'server/db/migrations'), path.join(root, 'dist/server/db/migrations'), { recursive: true });
// plain-JavaScript worker entry points (tsc emits only .ts sources)
cpSync(path.join(root, 'server/media'), path.join(root, 'dist/server/media'), { recursive: true, filter: (src) => !/\.(d\.m)?ts$/.test(src) });
const assets = path.join(root, 'server/assets');
if (existsSync(assets)) cpSync(assets, path.join(root, 'dist/server/assets'), { recursive: true });
