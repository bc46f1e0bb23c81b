/**
 * Usage errors of `user`, `scan` and `demo`, as a real process: each says what is wrong and changes
 * nothing — an unknown `user` subcommand, a user name with spaces around it (taken as `passwd` and `add`
 * take it), an empty API key label, conflicting scan flags, and a demo library that cannot be added.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { runCli } from '../helpers/run-cli.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

/** A command that must succeed, run in this process (the same program, without a process start per step). */
const ok = async (args: string[]) => {
  const run = await cliInProcess(['--lang', 'en', ...args]);
  expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(0);
  return run;
};

describe('kikoplay user', () => {
  it('an unknown subcommand is an unknown command, exit 1', async () => {
    const run = await runCli(['--data-dir', tempDir(), 'user', 'bogus']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error: unknown command 'bogus'");
    expect(run.stderr).not.toContain('too many arguments');
    const typo = await runCli(['--data-dir', tempDir(), 'user', 'lst']);
    expect(typo.stderr).toContain("error: unknown command 'lst'");
    expect(typo.stderr).toContain('(Did you mean list?)');
  });

  it('takes a name with spaces around it in every subcommand, as add and passwd do', async () => {
    const d = tempDir();
    await ok(['--data-dir', d, 'user', 'add', '  carol ', '--password', 'secret12']);
    await ok(['--data-dir', d, 'user', 'add', 'admin1', '--password', 'secret12', '--role', 'admin']);
    await ok(['--data-dir', d, 'user', 'passwd', ' carol  ', '--password', 'secret34']);
    const role = await ok(['--data-dir', d, 'user', 'role', '  carol ', 'guest']);
    expect(role.stdout).toContain('carol');
    const created = await ok(['--data-dir', d, 'user', 'api-key', 'create', ' carol ', '--label', ' phone ']);
    expect(created.stderr).toContain('API key "phone" for carol');
    const keys = await ok(['--data-dir', d, 'user', 'api-key', 'list', ' carol', '--json']);
    expect((JSON.parse(keys.stdout) as { name: string }[]).map((k) => k.name)).toEqual(['phone']);
    await ok(['--data-dir', d, 'user', 'api-key', 'revoke', 'carol ', ' phone ']);
    await ok(['--data-dir', d, 'user', 'subsonic-password', ' carol ', '--password', 'subsonic-pw']);
    await ok(['--data-dir', d, 'user', 'delete', ' carol ']);
    const list = await ok(['--data-dir', d, 'user', 'list', '--json']);
    expect((JSON.parse(list.stdout) as { name: string }[]).map((u) => u.name)).toEqual(['admin1']);
  });

  it('an empty API key label is said to be the label, exit 1', async () => {
    const d = tempDir();
    await ok(['--data-dir', d, 'user', 'add', 'carol', '--password', 'secret12']);
    for (const label of ['', '   ']) {
      const run = await runCli(['--data-dir', d, 'user', 'api-key', 'create', 'carol', '--label', label]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe('kikoplay: the API key label is empty: give --label a name (e.g. the app or device), or leave it out for cli-<time>');
      expect(run.stdout).toBe('');
    }
  });
});

describe('kikoplay scan', () => {
  it.each([
    ['--full', '--files'],
    ['--full', '--purge-missing'],
    ['--full', '--refresh-metadata'],
    ['--full', '--work', 'RJ123456'],
  ])('refuses %s with %s as a conflict, exit 2', async (...flags) => {
    const run = await runCli(['--data-dir', tempDir(), 'scan', ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(`kikoplay: these options cannot be combined: --full, ${flags[1]}`);
  });
});

describe('kikoplay demo', () => {
  it('refuses when the "demo" alias is taken, writing nothing', async () => {
    const d = tempDir();
    const other = tempDir('kikoplay-other-');
    writeFileSync(path.join(d, 'config.json'), JSON.stringify({ rootFolders: [{ name: 'demo', path: other }] }));
    const run = await runCli(['--data-dir', d, 'demo', '--no-scan']);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(`kikoplay: a root folder named "demo" already points at ${other}; remove it first (kikoplay config set rootFolders ...)`);
    expect(existsSync(path.join(d, 'demo-library'))).toBe(false);
  });

  it('refuses when a root folder holds the data dir, saying why, writing nothing', async () => {
    const root = tempDir('kikoplay-outer-');
    const d = path.join(root, 'data');
    mkdirSync(d, { mode: 0o700 });
    writeFileSync(path.join(d, 'config.json'), JSON.stringify({ rootFolders: [{ name: 'outer', path: root }] }));
    const run = await runCli(['--data-dir', d, 'demo', '--no-scan']);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `kikoplay: the demo library ${path.join(d, 'demo-library')} cannot be added as a root folder: This path overlaps the folder “outer”; the same works would be scanned twice.`,
    );
    expect(existsSync(path.join(d, 'demo-library'))).toBe(false);
  });
});
