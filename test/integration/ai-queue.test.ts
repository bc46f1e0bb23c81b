import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAiLibrary, type AiLibrary } from '../helpers/ai-library.js';
import type { TestServer } from '../helpers/app.js';
import { requeueExpiredAiTasks } from '../../server/jobs/ai-lease.js';

interface Task {
  id: number;
  work_id: number;
  audio_path: string;
  status: number;
  status_text: string;
  worker_name: string;
  worker_status: string;
  acquired_by: { kind: 'user' | 'token'; name: string } | null;
  finished_by: { kind: 'user' | 'token'; name: string } | null;
  title: string | null;
  created_at: string;
  updated_at: string;
}
interface TaskList {
  pagination: { currentPage: number; pageSize: number; totalCount: number };
  tasks: Task[];
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string | number>) => new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString();

describe('AI lyric task queue (UI side) and worker protocol', () => {
  let lib: AiLibrary;
  let t: TestServer;
  let alice: string;
  let guest: string;

  const list = async (query: string, token = alice) => t.json<TaskList>('GET', `/api/lyric/translate?${query}`, { token });
  const taskRow = (id: number) => t.app.db.get<Record<string, unknown>>('SELECT status, worker_name, worker_status, secret, lrc, updated_at, lease_expires_at FROM ai_tasks WHERE id = ?', [id]);
  const hasAi = async (workId: number) => (await t.app.db.get<{ has_ai_lyric: number }>('SELECT has_ai_lyric FROM works WHERE id = ?', [workId]))!.has_ai_lyric;
  const acquireForm = (token: string, name = 'default_worker') => t.request('POST', '/api/lyric/translate/acquire', { token, raw: form({ worker_name: name }), headers: FORM });
  const clearQueue = async () => {
    await t.app.db.run('DELETE FROM ai_tasks');
    await t.app.db.run('UPDATE works SET has_ai_lyric = 0');
  };
  const create = async (hash: string, token = alice) => t.json<{ id: number; error?: string }>('PUT', `/api/lyric/translate/${hash}`, { token });

  beforeAll(async () => {
    lib = await startAiLibrary({ pageSize: 2 });
    t = lib.t;
    await t.addUser('alice', 'secret1', 'user');
    await t.addUser('guest1', 'secret1', 'guest');
    alice = await t.login('alice', 'secret1');
    guest = await t.login('guest1', 'secret1');
    await lib.seedWork(123456, [
      { path: 'mp3/01 はじめに.mp3', fixture: 'tone-2s.mp3' },
      { path: 'mp3/02 本編.flac', fixture: 'tone-1.5s.flac' },
      { path: 'mp3/02 本編.lrc', bytes: Buffer.from('[00:00.00] x\n'), kind: 'text' },
      { path: 'wav/100%_file.wav', fixture: 'tone-1s.wav' },
      { path: 'gone.mp3', fixture: 'tone-2s.mp3' },
    ]);
    await lib.seedWork(234567, [{ path: 'track.m4a', fixture: 'tone-3s.m4a' }]);
    rmSync(path.join(lib.libDir, 'RJ123456 作品 123456', 'gone.mp3'));
  });
  afterAll(() => lib.close());

  it('creates a task by track hash and lists it with every field', async () => {
    const res = await create('123456/0');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number) });
    const l = await list('page=1&status=[]');
    expect(l.status).toBe(200);
    expect(l.body.pagination).toEqual({ currentPage: 1, pageSize: 2, totalCount: 1 });
    expect(l.body.tasks).toEqual([
      {
        id: res.body.id,
        work_id: 123456,
        audio_path: 'mp3/01 はじめに.mp3',
        status: 1,
        status_text: 'pending',
        worker_name: '',
        worker_status: '',
        acquired_by: null,
        finished_by: null,
        title: '作品 123456',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        can_change: true,
      },
    ]);
    // a pending task is not an AI lyric yet
    expect(await hasAi(123456)).toBe(0);
  });

  it('refuses bad creations with 4xx, a clear message, no absolute path and no change', async () => {
    const before = await t.app.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM ai_tasks');
    const cases: [string, number, RegExp][] = [
      ['123456/0', 409, /already contain translation task\[mp3\/01 はじめに\.mp3\]/],
      ['123456/2', 400, /不是音频文件/],
      ['123456/99', 404, /没有编号为 99 的文件/],
      ['999999/0', 404, /RJ999999 不存在/],
      ['123456/4', 404, /找不到具体的音频文件: "gone\.mp3"/],
      ['abc/0', 400, /参数 id 无效/],
      ['123456/-1', 400, /参数 index 无效/],
    ];
    for (const [hash, status, message] of cases) {
      const res = await create(hash);
      expect(res.status, hash).toBe(status);
      expect(res.body.error, hash).toMatch(message);
      expect(res.body.error).not.toContain(lib.libDir);
    }
    expect(await t.app.db.get('SELECT COUNT(*) AS n FROM ai_tasks')).toEqual(before);
  });

  it('lets guests read but not write, and needs a login', async () => {
    const res = await create('123456/1', guest);
    expect(res.status).toBe(403);
    expect((await list('page=1&status=[]', guest)).status).toBe(200);
    const id = (await list('page=1&status=[]')).body.tasks[0].id;
    expect((await t.json('DELETE', `/api/lyric/translate/${id}`, { token: guest })).status).toBe(403);
    expect((await t.json('POST', `/api/lyric/translate/redo/${id}`, { token: guest })).status).toBe(403);
    expect((await t.json('PUT', '/api/lyric/translate/123456/1')).status).toBe(401);
    expect((await t.json('GET', '/api/lyric/translate?page=1&status=[]')).status).toBe(401);
    expect((await acquireForm(guest)).status).toBe(403);
    expect(await t.app.db.get('SELECT COUNT(*) AS n FROM ai_tasks')).toEqual({ n: 1 });
  });

  it('pages, filters by status, work and file name (LIKE-safe), page -1 forms, newest update first', async () => {
    await clearQueue();
    const ids: number[] = [];
    for (const hash of ['123456/0', '123456/1', '123456/3', '234567/0']) ids.push((await create(hash)).body.id);
    // distinct update times, oldest first
    for (const [i, id] of ids.entries()) await t.app.db.run('UPDATE ai_tasks SET updated_at = ? WHERE id = ?', [`2024-01-0${i + 1} 00:00:00`, id]);
    await t.app.db.run('UPDATE ai_tasks SET status = 3 WHERE id = ?', [ids[1]]);

    const p1 = await list('page=1&status=[]');
    expect(p1.body.pagination).toEqual({ currentPage: 1, pageSize: 2, totalCount: 4 });
    expect(p1.body.tasks.map((x) => x.id)).toEqual([ids[3], ids[2]]);
    expect((await list('page=2&status=[]')).body.tasks.map((x) => x.id)).toEqual([ids[1], ids[0]]);
    expect((await list('page=3&status=[]')).body.tasks).toEqual([]);

    const success = await list('page=1&status=[3]');
    expect(success.body.tasks.map((x) => [x.id, x.status_text])).toEqual([[ids[1], 'success']]);
    expect((await list('page=1&status=["pending"]')).body.pagination.totalCount).toBe(3);
    expect((await list('page=1&status=[1,3]')).body.pagination.totalCount).toBe(4);

    const work = await list('page=-1&status=[]&work_id=123456');
    expect(work.body.pagination).toEqual({ currentPage: -1, pageSize: 3, totalCount: 3 });
    expect(work.body.tasks.map((x) => x.id)).toEqual([ids[2], ids[1], ids[0]]);
    const first = await list('page=-1&status=[]');
    expect(first.body.pagination).toEqual({ currentPage: -1, pageSize: 2, totalCount: 4 });
    expect(first.body.tasks).toHaveLength(2);

    expect((await list('page=1&status=[]&file_name=本編')).body.tasks.map((x) => x.id)).toEqual([ids[1]]);
    expect((await list('page=1&status=[]&file_name=100%25_')).body.tasks.map((x) => x.id)).toEqual([ids[2]]);
    expect((await list('page=1&status=[]&file_name=1%25f')).body.tasks).toEqual([]);
    expect((await list('page=1&status=[]&work_id=0')).body.pagination.totalCount).toBe(4);
  });

  it('answers 400 for bad list parameters', async () => {
    for (const q of ['status=[]', 'page=1', 'page=1&status=1', 'page=1&status=[9]', 'page=1&status={"a":1}', 'page=0&status=[]', 'page=x&status=[]', 'page=1&status=[]&work_id=-3']) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(typeof (res.body as unknown as { error: string }).error).toBe('string');
    }
    expect((await t.json('GET', '/api/lyric/translate/lrc?id=abc', { token: alice })).status).toBe(400);
  });

  it('redoes and deletes one or many tasks ({idArr}); unknown ids are a 404 that changes nothing', async () => {
    const all = (await list('page=-1&status=[]&work_id=123456')).body.tasks.map((x) => x.id);
    await t.app.db.run("UPDATE ai_tasks SET status = 2, worker_name = 'w', worker_status = 'busy', secret = 'abc' WHERE id = ?", [all[0]]);

    const unknown = await t.json<{ error: string }>('POST', `/api/lyric/translate/redo/${all[0]}`, { token: alice, body: { idArr: [all[1], 987654] } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain('987654');
    expect(await taskRow(all[0])).toMatchObject({ status: 2, secret: 'abc' });

    const redo = await t.json('POST', `/api/lyric/translate/redo/${all[0]}`, { token: alice, body: { idArr: [all[1], all[0]] } });
    expect(redo).toEqual({ status: 200, body: { counts: 2 } });
    expect(await taskRow(all[0])).toMatchObject({ status: 1, worker_name: '', worker_status: '', secret: null });

    expect((await t.json('DELETE', '/api/lyric/translate/987654', { token: alice })).status).toBe(404);
    expect((await t.json('DELETE', '/api/lyric/translate/0', { token: alice })).status).toBe(400);
    expect((await t.json('DELETE', `/api/lyric/translate/${all[0]}`, { token: alice, body: { idArr: ['x'] } })).status).toBe(400);
    const del = await t.json('DELETE', `/api/lyric/translate/${all[0]}`, { token: alice, body: { idArr: [all[1]] } });
    expect(del).toEqual({ status: 200, body: { counts: 2 } });
    const single = await t.json('DELETE', `/api/lyric/translate/${all[2]}`, { token: alice });
    expect(single).toEqual({ status: 200, body: { counts: 1 } });
    expect((await list('page=-1&status=[]&work_id=123456')).body.tasks).toEqual([]);
  });

  it('refuses task ids, work ids and file numbers of the wrong type instead of coercing them onto other tasks', async () => {
    await clearQueue();
    const a = (await create('123456/0')).body.id;
    const b = (await create('123456/1')).body.id;
    // each of these named task b (or work 123456, file 0) through Number()
    const bad: [string, string, unknown][] = [
      ['DELETE', `/api/lyric/translate/${a}`, { idArr: [true] }],
      ['DELETE', `/api/lyric/translate/${a}`, { idArr: [[b]] }],
      ['DELETE', `/api/lyric/translate/${a}`, { idArr: [`0x${b.toString(16)}`] }],
      ['DELETE', `/api/lyric/translate/0x${b.toString(16)}`, undefined],
      ['DELETE', `/api/lyric/translate/${b}e0`, undefined],
      ['POST', `/api/lyric/translate/redo/${a}`, { idArr: [`${b}e0`] }],
      ['PUT', '/api/lyric/translate/0x1e240/2', undefined],
      ['PUT', '/api/lyric/translate/123456/0x2', undefined],
      ['GET', `/api/lyric/translate/lrc?id=0x${b.toString(16)}`, undefined],
      ['GET', '/api/lyric/translate?page=0x1&status=[]', undefined],
      ['GET', '/api/lyric/translate?page=1&status=[]&work_id=0x1e240', undefined],
    ];
    for (const [method, path, body] of bad) {
      const res = await t.json<{ error: string }>(method, path, { token: alice, body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error).toMatch(/^参数 \S+ 无效: /);
    }
    expect((await list('page=-1&status=[]&work_id=123456')).body.tasks.map((x) => x.id).sort()).toEqual([a, b].sort());
    // digit strings (form bodies) still name tasks
    expect(await t.json('DELETE', `/api/lyric/translate/${a}`, { token: alice, body: { idArr: [String(b)] } })).toEqual({ status: 200, body: { counts: 2 } });
  });

  it('speaks the reference Python worker: form acquire, form status with a string id, params download, JSON finish', async () => {
    await clearQueue();
    const id = (await create('123456/0')).body.id;
    await create('234567/0');

    const acq = await acquireForm(alice);
    expect(acq.status).toBe(200);
    const task = (await acq.json()) as { id: number; secret: string; audio_ext: string };
    expect(task).toEqual({ id, secret: expect.stringMatching(/^[0-9a-f]{64}$/), audio_ext: '.mp3' });
    expect(await taskRow(id)).toMatchObject({ status: 2, worker_name: 'default_worker', worker_status: 'task acquired', secret: task.secret });

    // the worker posts {**task, worker_status} form-encoded: id is a string, extra fields ride along
    const status = await t.request('POST', '/api/lyric/translate/status', {
      token: alice,
      raw: form({ id: String(task.id), secret: task.secret, audio_ext: task.audio_ext, audio_file_name: `${task.id}.mp3`, worker_status: '翻译进度: 10%' }),
      headers: FORM,
    });
    expect(await status.json()).toEqual({ success: true });
    expect((await taskRow(id))!.worker_status).toBe('翻译进度: 10%');
    // JSON with a numeric id works too
    expect((await t.json('POST', '/api/lyric/translate/status', { token: alice, body: { id: task.id, secret: task.secret, worker_status: 'transcribing 1/2 chunks' } })).body).toEqual({
      success: true,
    });
    const shown = (await list(`page=-1&status=[2]&work_id=123456`)).body.tasks[0];
    expect(shown).toMatchObject({ status: 2, status_text: 'transcribing', worker_name: 'default_worker', worker_status: 'transcribing 1/2 chunks' });

    const got = await t.json('GET', `/api/lyric/translate/get?id=${task.id}&secret=${task.secret}`, { token: alice });
    expect(got.body).toEqual({ task: { id, worker_status: 'transcribing 1/2 chunks', work_id: 123456, audio_path: 'mp3/01 はじめに.mp3' } });

    const dl = await t.request('GET', `/api/lyric/translate/download?id=${task.id}&secret=${task.secret}`, { token: alice });
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-type')).toBe('audio/mpeg');
    expect(dl.headers.get('content-disposition')).toContain('attachment');
    expect(Buffer.from(await dl.arrayBuffer())).toEqual(readFileSync(path.join(lib.libDir, 'RJ123456 作品 123456', 'mp3', '01 はじめに.mp3')));

    const lrc = '[00:00.00] こんにちは\n[75:02.10] さようなら\n';
    const fin = await t.json('POST', '/api/lyric/translate/finish', { token: alice, body: { id: task.id, secret: task.secret, success: true, lrc_content: lrc } });
    expect(fin).toEqual({ status: 200, body: {} });
    expect(await taskRow(id)).toMatchObject({ status: 3, secret: null, lrc });
    expect(await hasAi(123456)).toBe(1);
    expect(await t.json('GET', `/api/lyric/translate/lrc?id=${id}`, { token: alice })).toEqual({ status: 200, body: { lrcContent: lrc } });

    // finishing twice is a 404 and changes nothing
    const before = await taskRow(id);
    const again = await t.json<{ error: string }>('POST', '/api/lyric/translate/finish', { token: alice, body: { id: task.id, secret: task.secret, success: false, lrc_content: '' } });
    expect(again).toEqual({ status: 404, body: { error: '没有找到指定的任务', code: 'AI_TASK_NOT_HELD' } });
    expect(await taskRow(id)).toEqual(before);
    // a finished task's secret no longer opens anything
    expect((await t.json('GET', `/api/lyric/translate/get?id=${task.id}&secret=${task.secret}`, { token: alice })).body).toEqual({});
    expect((await t.json('POST', '/api/lyric/translate/status', { token: alice, body: { id: task.id, secret: task.secret, worker_status: 'x' } })).body).toEqual({ success: false });

    // the second task fails: ERROR, no LRC
    const second = (await (await acquireForm(alice)).json()) as { id: number; secret: string; audio_ext: string };
    expect(second.audio_ext).toBe('.m4a');
    const m4a = await t.request('GET', `/api/lyric/translate/download?id=${second.id}&secret=${second.secret}`, { token: alice });
    expect(m4a.headers.get('content-type')).toMatch(/^audio\/(mp4|x-m4a)/);
    await m4a.arrayBuffer();
    expect((await t.json('POST', '/api/lyric/translate/finish', { token: alice, body: { id: second.id, secret: second.secret, success: false, lrc_content: '' } })).status).toBe(200);
    expect(await taskRow(second.id)).toMatchObject({ status: 4, secret: null, lrc: null });
    expect(await hasAi(234567)).toBe(0);
    expect((await t.json('GET', `/api/lyric/translate/lrc?id=${second.id}`, { token: alice })).status).toBe(404);

    // empty queue
    const empty = await acquireForm(alice);
    expect(empty.status).toBe(404);
    expect(await empty.json()).toEqual({ error: '无待认领的翻译任务', code: 'AI_QUEUE_EMPTY' });

    // deleting the successful task takes the work's AI lyric away
    await t.json('DELETE', `/api/lyric/translate/${id}`, { token: alice });
    expect(await hasAi(123456)).toBe(0);
  });

  it('refuses wrong and empty secrets, unknown ids and malformed bodies, changing nothing', async () => {
    await clearQueue();
    const id = (await create('123456/0')).body.id;
    const task = (await (await acquireForm(alice, 'w1')).json()) as { id: number; secret: string };
    const before = await taskRow(id);

    const wrong = 'f'.repeat(64);
    expect((await t.json('POST', '/api/lyric/translate/status', { token: alice, body: { id, secret: wrong, worker_status: 'hijack' } })).body).toEqual({ success: false });
    expect((await t.json('GET', `/api/lyric/translate/get?id=${id}&secret=${wrong}`, { token: alice })).body).toEqual({});
    expect((await t.request('GET', `/api/lyric/translate/download?id=${id}&secret=${wrong}`, { token: alice })).status).toBe(404);
    expect((await t.json('POST', '/api/lyric/translate/finish', { token: alice, body: { id, secret: wrong, success: true, lrc_content: 'x' } })).status).toBe(404);
    expect((await t.json('POST', '/api/lyric/translate/finish', { token: alice, body: { id: 99999, secret: task.secret, success: true, lrc_content: 'x' } })).status).toBe(404);
    expect((await t.json('POST', '/api/lyric/translate/status', { token: alice, body: { id: 99999, secret: task.secret, worker_status: 'x' } })).body).toEqual({ success: false });

    const bad: [string, string, unknown][] = [
      ['POST', '/api/lyric/translate/status', { id, secret: '', worker_status: 'x' }],
      ['POST', '/api/lyric/translate/status', { id, worker_status: 'x' }],
      ['POST', '/api/lyric/translate/status', { id: 'abc', secret: task.secret }],
      ['POST', '/api/lyric/translate/finish', { id, secret: '', success: true, lrc_content: 'x' }],
      ['POST', '/api/lyric/translate/finish', { id, secret: '   ', success: true, lrc_content: 'x' }],
      ['POST', '/api/lyric/translate/finish', { id, secret: task.secret, success: 'maybe', lrc_content: 'x' }],
      ['POST', '/api/lyric/translate/finish', { id, secret: task.secret, success: true }],
      ['POST', '/api/lyric/translate/finish', { secret: task.secret, success: true, lrc_content: 'x' }],
      ['GET', `/api/lyric/translate/get?id=${id}&secret=`, undefined],
      ['GET', `/api/lyric/translate/get?id=${id}`, undefined],
      ['GET', `/api/lyric/translate/download?id=${id}&secret=`, undefined],
      ['GET', `/api/lyric/translate/download?id=x&secret=${task.secret}`, undefined],
    ];
    for (const [method, p, body] of bad) {
      const res = await t.json<{ error: string }>(method, p, { token: alice, body });
      expect(res.status, `${method} ${p} ${JSON.stringify(body)}`).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    const malformed = await t.request('POST', '/api/lyric/translate/finish', { token: alice, raw: '{"id":', headers: { 'Content-Type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(await taskRow(id)).toEqual(before);
  });

  it('updates updated_at on every change and re-queues a task whose worker stopped reporting', async () => {
    await clearQueue();
    const id = (await create('123456/0')).body.id;
    const first = (await (await acquireForm(alice, 'dead-worker')).json()) as { id: number; secret: string };
    await t.app.db.run("UPDATE ai_tasks SET updated_at = '2000-01-01 00:00:00' WHERE id = ?", [id]);
    await t.json('POST', '/api/lyric/translate/status', { token: alice, body: { id, secret: first.secret, worker_status: 'transcribing 1/3 chunks' } });
    expect((await taskRow(id))!.updated_at).not.toBe('2000-01-01 00:00:00');

    // the timer: nothing expires now, everything held expires an hour after the lease length
    expect(await requeueExpiredAiTasks(t.app.services.aiTasks)).toBe(0);
    expect((await taskRow(id))!.status).toBe(2);
    expect(await requeueExpiredAiTasks(t.app.services.aiTasks, undefined, new Date(Date.now() + 31 * 60_000))).toBe(1);
    expect(await taskRow(id)).toMatchObject({ status: 1, secret: null, worker_name: '', lease_expires_at: null });
    expect((await taskRow(id))!.worker_status).toContain('dead-worker');

    // lazily at acquire: a lapsed lease is re-queued and handed to the next worker
    const second = (await (await acquireForm(alice, 'worker-2')).json()) as { id: number; secret: string };
    expect(second.id).toBe(id);
    await t.app.db.run("UPDATE ai_tasks SET lease_expires_at = '2000-01-01 00:00:00' WHERE id = ?", [id]);
    const third = (await (await acquireForm(alice, 'worker-3')).json()) as { id: number; secret: string };
    expect(third.id).toBe(id);
    expect(third.secret).not.toBe(second.secret);
    // the old holders are locked out; the new one finishes
    expect((await t.json('POST', '/api/lyric/translate/finish', { token: alice, body: { id, secret: second.secret, success: true, lrc_content: 'late' } })).status).toBe(404);
    expect((await t.json('POST', '/api/lyric/translate/finish', { token: alice, body: { id, secret: third.secret, success: true, lrc_content: '[00:01.00] ok' } })).status).toBe(200);
    expect(await taskRow(id)).toMatchObject({ status: 3, worker_name: 'worker-3', lrc: '[00:01.00] ok' });
  });

  describe('ownership: who may delete or redo, and who acquired and finished (issue 17 item 7)', () => {
    let bob: string;
    let admin: string;
    let workerToken: string;

    beforeAll(async () => {
      await t.addUser('bobby', 'secret1', 'user');
      await t.addUser('rooty', 'secret1', 'admin');
      bob = await t.login('bobby', 'secret1');
      admin = await t.login('rooty', 'secret1');
      workerToken = (await t.app.services.workerTokens.create('gpu-box')).token;
    });

    /** alice's task, finished with her lyric by a worker token. */
    async function alicesFinishedTask(): Promise<{ id: number; lrc: string }> {
      await clearQueue();
      const id = (await create('123456/0')).body.id;
      const acq = await acquireForm(workerToken, 'official-whisper-worker');
      const task = (await acq.json()) as { id: number; secret: string };
      const lrc = "[00:00.00] alice's lyric\n";
      expect((await t.json('POST', '/api/lyric/translate/finish', { token: workerToken, body: { id: task.id, secret: task.secret, success: true, lrc_content: lrc } })).status).toBe(200);
      return { id, lrc };
    }

    it("refuses another user's delete and redo with 403, changing nothing; several ids are refused together", async () => {
      const { id, lrc } = await alicesFinishedTask();
      const own = (await create('123456/1', bob)).body.id;
      const before = await taskRow(id);

      const redo = await t.json<{ error: string }>('POST', `/api/lyric/translate/redo/${id}`, { token: bob });
      expect(redo.status).toBe(403);
      expect(redo.body.error).toContain(`id=${id}`);
      const del = await t.json<{ error: string }>('DELETE', `/api/lyric/translate/${id}`, { token: bob });
      expect(del.status).toBe(403);
      // one foreign id among bob's own: the whole batch is refused
      expect((await t.json('DELETE', `/api/lyric/translate/${own}`, { token: bob, body: { idArr: [id] } })).status).toBe(403);
      expect((await t.json('POST', `/api/lyric/translate/redo/${own}`, { token: bob, body: { idArr: [id] } })).status).toBe(403);

      expect(await taskRow(id)).toEqual(before);
      expect(await t.json('GET', `/api/lyric/translate/lrc?id=${id}`, { token: bob })).toEqual({ status: 200, body: { lrcContent: lrc } });
      expect(await taskRow(own)).toMatchObject({ status: 1 });
      expect(await hasAi(123456)).toBe(1);
    });

    it('lists each task with can_change for the viewer: the requester and admins, not other users nor guests', async () => {
      await clearQueue();
      const alices = (await create('123456/0')).body.id;
      const bobs = (await create('123456/1', bob)).body.id;
      const changeable = async (token: string) =>
        Object.fromEntries((await list('page=-1&status=[]&work_id=123456', token)).body.tasks.map((task) => [task.id, (task as Task & { can_change?: boolean }).can_change]));
      expect(await changeable(alice)).toEqual({ [alices]: true, [bobs]: false });
      expect(await changeable(bob)).toEqual({ [alices]: false, [bobs]: true });
      expect(await changeable(admin)).toEqual({ [alices]: true, [bobs]: true });
      expect(await changeable(guest)).toEqual({ [alices]: false, [bobs]: false });
    });

    it('lets the requester and an admin redo and delete; a task whose requester is gone is left to admins', async () => {
      const { id } = await alicesFinishedTask();
      expect(await t.json('POST', `/api/lyric/translate/redo/${id}`, { token: alice })).toEqual({ status: 200, body: { counts: 1 } });
      expect(await t.json('POST', `/api/lyric/translate/redo/${id}`, { token: admin })).toEqual({ status: 200, body: { counts: 1 } });
      const bobs = (await create('123456/1', bob)).body.id;
      expect(await t.json('DELETE', `/api/lyric/translate/${bobs}`, { token: admin, body: { idArr: [id] } })).toEqual({ status: 200, body: { counts: 2 } });

      const orphan = (await create('123456/0')).body.id;
      await t.app.db.run('UPDATE ai_tasks SET created_by = NULL WHERE id = ?', [orphan]);
      expect((await t.json('DELETE', `/api/lyric/translate/${orphan}`, { token: alice })).status).toBe(403);
      expect(await t.json('DELETE', `/api/lyric/translate/${orphan}`, { token: admin })).toEqual({ status: 200, body: { counts: 1 } });
    });

    it('records and lists the account that acquired and finished a task beside the self-chosen worker name', async () => {
      const { id } = await alicesFinishedTask();
      const shown = (await list(`page=-1&status=[]&work_id=123456`, bob)).body.tasks.find((x) => x.id === id)!;
      expect(shown).toMatchObject({
        worker_name: 'official-whisper-worker',
        acquired_by: { kind: 'token', name: 'gpu-box' },
        finished_by: { kind: 'token', name: 'gpu-box' },
      });

      // a user acting as a worker is recorded as that user, whatever name it claims
      const second = (await create('123456/1')).body.id;
      const acq = (await (await acquireForm(bob, 'official-whisper-worker')).json()) as { id: number; secret: string };
      expect(acq.id).toBe(second);
      let row = (await list(`page=-1&status=[2]&work_id=123456`)).body.tasks[0];
      expect(row).toMatchObject({ id: second, worker_name: 'official-whisper-worker', acquired_by: { kind: 'user', name: 'bobby' }, finished_by: null });
      // the secret handed on: whoever sends the result is recorded too
      await t.json('POST', '/api/lyric/translate/finish', { token: alice, body: { id: second, secret: acq.secret, success: false, lrc_content: '' } });
      row = (await list(`page=-1&status=[4]&work_id=123456`)).body.tasks[0];
      expect(row).toMatchObject({ id: second, acquired_by: { kind: 'user', name: 'bobby' }, finished_by: { kind: 'user', name: 'alice' } });

      // a redo forgets them with the worker name
      await t.json('POST', `/api/lyric/translate/redo/${second}`, { token: alice });
      row = (await list(`page=-1&status=[1]&work_id=123456`)).body.tasks[0];
      expect(row).toMatchObject({ id: second, worker_name: '', acquired_by: null, finished_by: null });
      // so does a lapsed lease
      const again = (await (await acquireForm(workerToken)).json()) as { id: number };
      expect(again.id).toBe(second);
      await requeueExpiredAiTasks(t.app.services.aiTasks, undefined, new Date(Date.now() + 31 * 60_000));
      row = (await list(`page=-1&status=[1]&work_id=123456`)).body.tasks[0];
      expect(row).toMatchObject({ id: second, acquired_by: null, finished_by: null });
    });
  });
});
