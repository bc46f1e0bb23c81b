import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { speechLikeWav, startAiLibrary, type AiLibrary } from '../helpers/ai-library.js';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai.js';
import { tempDir, type TestServer } from '../helpers/app.js';
import { parseWorkerOptions, type RawWorkerFlags, type WorkerOptions } from '../../server/worker/options.js';
import { runWorker } from '../../server/worker/run-worker.js';
import type { WorkerLog } from '../../server/worker/log.js';
import type { SavedTask } from '../../server/worker/state.js';
import { requeueExpiredAiTasks } from '../../server/jobs/ai-lease.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs the `worker` command alone (as `kikoplay worker` does) without loading the whole CLI: quicker to start. */
const WORKER_ENTRY = [
  "const { workerCommand } = await import('./cli/commands/worker.ts');",
  "const { reportError } = await import('./cli/output/print.ts');",
  'const cmd = workerCommand().exitOverride();',
  "try { await cmd.parseAsync(process.argv.slice(1), { from: 'user' }); } catch (err) { process.exit(reportError(err)); }",
].join('\n');

interface Spawned {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `kikoplay worker …` from source in a child process. */
function spawnWorker(args: string[]): Spawned {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', WORKER_ENTRY, '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, KIKOPLAY_DATA_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const UTTERANCES = [
  { start: 3, end: 4 },
  { start: 14, end: 15 },
  { start: 25, end: 26.5 },
];

describe('kikoplay worker: Ctrl-C and resume, crash and lease, re-login', () => {
  let lib: AiLibrary;
  let t: TestServer;
  let fake: FakeOpenAi;
  let alice: string;
  let workerToken: string;
  let logs: string[];
  const log: WorkerLog = { info: (m) => logs.push(m), warn: (m) => logs.push(`warn: ${m}`), error: (m) => logs.push(`error: ${m}`) };

  const options = (flags: RawWorkerFlags): WorkerOptions => ({
    ...parseWorkerOptions({ server: t.url, token: workerToken, apiBase: fake.url, once: true, ...flags }, {}),
    backoffMs: 5,
  });
  const task = (id: number) =>
    t.app.db.get<{ status: number; worker_name: string; worker_status: string; secret: string | null }>('SELECT status, worker_name, worker_status, secret FROM ai_tasks WHERE id = ?', [id]);
  const create = async (hash: string) => (await t.json<{ id: number }>('PUT', `/api/lyric/translate/${hash}`, { token: alice })).body.id;
  const cliArgs = (stateDir: string, name: string) => [
    '--server',
    t.url,
    '--token',
    workerToken,
    '--api-base',
    fake.url,
    '--name',
    name,
    '--state-dir',
    stateDir,
    '--max-upload-mb',
    '0.35',
    '--poll',
    '0.2',
  ];

  beforeAll(async () => {
    lib = await startAiLibrary();
    t = lib.t;
    fake = await startFakeOpenAi();
    await t.addUser('alice', 'secret1', 'user');
    await t.addUser('worker1', 'secret1', 'user');
    alice = await t.login('alice', 'secret1');
    workerToken = (await t.app.services.workerTokens.create('gpu-box')).token;
    await lib.seedWork(456789, [
      { path: 'a.wav', bytes: speechLikeWav(30, UTTERANCES) },
      { path: 'b.wav', bytes: speechLikeWav(30, UTTERANCES) },
      { path: 'c.mp3', fixture: 'tone-2s.mp3' },
    ]);
  });
  afterAll(async () => {
    await fake.close();
    await lib.close();
  });
  beforeEach(() => {
    logs = [];
    fake.release();
    fake.transcriptions.length = 0;
  });

  it('stops cleanly on SIGINT mid-task, finishing nothing, and resumes after a restart without redoing finished chunks', async () => {
    const id = await create('456789/0');
    const stateDir = tempDir('kikoplay-worker-');
    fake.hold();
    const w = spawnWorker(cliArgs(stateDir, 'desk'));
    await fake.waitForTranscriptions(1);
    fake.release();
    fake.hold();
    await fake.waitForTranscriptions(2);
    expect((await task(id))!.worker_status).toBe('transcribing 2/3 chunks');

    w.child.kill('SIGINT');
    expect(await w.exited).toBe(0);
    expect(w.stderr()).toContain('SIGINT: stopping');
    expect(w.stderr()).toContain('worker stopped: 0 done');
    const held = await task(id);
    expect(held).toMatchObject({ status: 2, worker_name: 'desk' });
    const saved = JSON.parse(readFileSync(path.join(stateDir, 'task.json'), 'utf8')) as SavedTask;
    expect(saved).toMatchObject({ id, secret: held!.secret, server: t.url });
    expect(saved.chunks!.map((c) => c !== null)).toEqual([true, false, false]);
    fake.release();

    // the restart picks the same task up (same secret) and sends only the two missing chunks
    const before = fake.transcriptions.length;
    const run = await runWorker(options({ stateDir, maxUploadMb: '0.35', name: 'desk' }), { signal: new AbortController().signal, log });
    expect(run).toEqual({ success: 1, failed: 0, lost: 0, stopped: false });
    expect(logs).toContain(`resuming task ${id}`);
    expect(fake.transcriptions.length - before).toBe(2);
    expect((await task(id))!.status).toBe(3);
    expect(existsSync(path.join(stateDir, 'task.json'))).toBe(false);
    const lrc = (await t.json<{ lrcContent: string }>('GET', `/api/lyric/translate/lrc?id=${id}`, { token: alice })).body.lrcContent;
    expect(
      lrc
        .trim()
        .split('\n')
        .map((l) => l.slice(0, 10)),
    ).toEqual(['[00:03.00]', '[00:14.00]', '[00:25.00]']);
  });

  it('re-queues the task of a crashed worker after the lease; another worker finishes it', async () => {
    const id = await create('456789/1');
    fake.hold();
    const w = spawnWorker(cliArgs(tempDir('kikoplay-worker-'), 'crashy'));
    await fake.waitForTranscriptions(1);
    expect(await task(id)).toMatchObject({ status: 2, worker_name: 'crashy' });
    const deadSecret = (await task(id))!.secret!;
    w.child.kill('SIGKILL');
    await w.exited;
    fake.release();

    // before the lease runs out nothing happens; after it, the task is pending again
    expect(await requeueExpiredAiTasks(t.app.services.aiTasks)).toBe(0);
    expect(await requeueExpiredAiTasks(t.app.services.aiTasks, undefined, new Date(Date.now() + 31 * 60_000))).toBe(1);
    expect(await task(id)).toMatchObject({ status: 1, secret: null });

    const run = await runWorker(options({ stateDir: tempDir('kikoplay-worker-'), maxUploadMb: '0.35', name: 'rescuer' }), { signal: new AbortController().signal, log });
    expect(run.success).toBe(1);
    expect(await task(id)).toMatchObject({ status: 3, worker_name: 'rescuer', secret: null });
    // the crashed worker's secret opens nothing any more
    const late = await t.json('POST', '/api/lyric/translate/finish', { token: workerToken, body: { id, secret: deadSecret, success: true, lrc_content: 'late' } });
    expect(late.status).toBe(404);
  });

  it('logs in with user/password, and logs in again when the server stops accepting its token', async () => {
    const id = await create('456789/2');
    const stateDir = tempDir('kikoplay-worker-');
    fake.hold();
    const running = runWorker(options({ token: undefined, user: 'worker1', password: 'secret1', stateDir, name: 'laptop' }), { signal: new AbortController().signal, log });
    await fake.waitForTranscriptions(1);
    const firstToken = readFileSync(path.join(stateDir, 'token'), 'utf8').trim();
    // every token issued so far stops working (as after expiry)
    await t.app.db.run("UPDATE users SET token_version = token_version + 1 WHERE name = 'worker1'");
    fake.release();
    const run = await running;
    expect(run.success).toBe(1);
    expect(logs.some((l) => l.includes('logging in again'))).toBe(true);
    expect((await task(id))!.status).toBe(3);
    expect(readFileSync(path.join(stateDir, 'token'), 'utf8').trim()).not.toBe(firstToken);
  });

  it('backs off while the server is unreachable and stops cleanly when asked', async () => {
    const port = await closedPort();
    const controller = new AbortController();
    // without --once: --once gives up after a few tries (cli-worker-unreachable.test.ts)
    const running = runWorker({ ...options({ server: `http://127.0.0.1:${port}`, stateDir: tempDir('kikoplay-worker-'), once: false }), backoffMs: 20 }, { signal: controller.signal, log });
    while (logs.filter((l) => l.includes('retrying in')).length < 3) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    expect(await running).toEqual({ success: 0, failed: 0, lost: 0, stopped: true });
    expect(logs.find((l) => l.includes('retrying in'))).toBe(`warn: connect: server http://127.0.0.1:${port} unreachable: ECONNREFUSED; retrying in 0.0 s`);
  });
});
