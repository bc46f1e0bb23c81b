/**
 * `kikoplay demo` offline: the demo works get circles, tags and voice actors, so the circle, tag and
 * voice actor screens have something to show without any metadata site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';

const cli = cliInProcess;

interface Label {
  id: number | string;
  name: string;
  count: number;
}

describe('kikoplay demo: a library with circles, tags and voice actors offline', () => {
  const dir = tempDir();
  let t: TestServer;
  let token: string;

  beforeAll(async () => {
    const demo = await cli(['--data-dir', dir, 'demo']);
    expect(demo.code, demo.stderr).toBe(0);
    t = await startTestServer({ dataDir: dir });
    await t.addUser('viewer', 'secret1', 'user');
    token = await t.login('viewer', 'secret1');
  }, 120_000);
  afterAll(() => t?.close());

  it.each(['circles', 'tags', 'vas'])('answers /api/%s with labels that hold works', async (kind) => {
    const res = await t.json<Label[]>('GET', `/api/${kind}`, { token });
    expect(res.status).toBe(200);
    const real = res.body.filter((l) => l.name !== 'N/A');
    expect(real.length).toBeGreaterThan(0);
    expect(real.every((l) => l.count > 0)).toBe(true);
  });

  it('links each demo work to its circle, tags and voice actors, and a second run changes nothing', async () => {
    const work = await t.json<{ circle: { name: string }; tags: { name: string }[]; vas: { name: string }[] }>('GET', '/api/work/990001', { token });
    expect(work.body.circle.name).toBe('しずくレコード');
    expect(work.body.tags.map((x) => x.name)).toEqual(expect.arrayContaining(['ASMR', '癒し', '雨音']));
    expect(work.body.vas.map((x) => x.name)).toEqual(['星野ひかり']);
    const before = (await t.json<Label[]>('GET', '/api/tags', { token })).body;
    await t.close();
    expect((await cli(['--data-dir', dir, 'demo'])).code).toBe(0);
    t = await startTestServer({ dataDir: dir });
    token = await t.login('viewer', 'secret1');
    const after = (await t.json<Label[]>('GET', '/api/tags', { token })).body;
    expect(after.map((l) => [l.name, l.count]).sort()).toEqual(before.map((l) => [l.name, l.count]).sort());
  }, 120_000);
});
