/**
 * The Ink user manager of `kikoplay user`, driven with ink-testing-library over the real UsersService
 * (a real SQLite file in a temp data dir): list, add (the web's rules and messages), change a password
 * (confirmed), change a role, delete, errors from the service, and quitting.
 */
import React from 'react';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { render } from 'ink-testing-library';
import { createAppContext } from '../../server/app/create-app.js';
import { createLogger } from '../../server/app/logger.js';
import type { AppContext } from '../../server/app/services.js';
import { verifyPassword } from '../../server/auth/password.js';
import { CLI_ACTOR } from '../../cli/context.js';
import { UserManager } from '../../cli/tui/user-manager.js';
import { usersApi } from '../../cli/tui/user-manager-run.js';
import { cliText } from '../../cli/i18n/index.js';
import { tempDir } from '../helpers/app.js';

const KEY = { enter: '\r', escape: '\u001B', up: '\u001B[A', down: '\u001B[B', right: '\u001B[C', backspace: '\u007F' };

let dir: string;
let app: AppContext;

beforeAll(async () => {
  dir = tempDir('kikoplay-um-');
  app = await createAppContext({ dataDir: dir, env: {}, logger: createLogger({ level: 'silent' }) });
  await app.services.users.create(CLI_ACTOR, { name: 'admin', password: 'admin-pass', group: 'admin' }, { allowAdmin: true });
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const roleOf = async (name: string) => (await app.repos.users.byName(name))?.role;

/** Mount the manager; `until(text)` waits for a frame containing it. */
function mount() {
  const onExit = vi.fn();
  const view = render(<UserManager api={usersApi(app.services.users, CLI_ACTOR)} onExit={onExit} width={100} texts={cliText('zh-CN')} />);
  const frame = () => view.lastFrame() ?? '';
  const until = (text: string | RegExp) =>
    vi.waitFor(
      () => {
        const f = frame();
        if (typeof text === 'string' ? !f.includes(text) : !text.test(f)) throw new Error(`not yet: ${text}\n${f}`);
      },
      { timeout: 5000, interval: 10 },
    );
  /** Type text one key at a time, as a terminal sends it. */
  const type = async (text: string) => {
    for (const ch of text) {
      view.stdin.write(ch);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  const press = async (key: string) => {
    view.stdin.write(key);
    await new Promise((r) => setTimeout(r, 5));
  };
  return { view, frame, until, type, press, onExit };
}

describe('the Ink user manager', () => {
  it('lists the users with their roles and the keys', async () => {
    const m = mount();
    await m.until('› admin');
    expect(m.frame()).toContain('管理员');
    expect(m.frame()).toContain('[a] 添加');
    m.view.unmount();
  });

  it('adds a user with the web rules: 5 characters, a unique name, user or guest', async () => {
    const m = mount();
    await m.until('› admin');
    await m.press('a');
    await m.until('添加用户');
    await m.type('abc');
    await m.press(KEY.enter);
    await m.until('✘ 用户名长度至少为 5');
    // an existing name
    await m.press(KEY.backspace);
    await m.press(KEY.backspace);
    await m.press(KEY.backspace);
    await m.type('admin');
    await m.press(KEY.enter);
    await m.until('✘ 该名称已存在，用户名不能重复');
    for (let i = 0; i < 5; i++) await m.press(KEY.backspace);
    await m.type('listener');
    await m.press(KEY.enter);
    await m.until('密码:');
    await m.type('1234');
    expect(m.frame()).toContain('密码: ****');
    expect(m.frame()).not.toContain('1234');
    await m.press(KEY.enter);
    await m.until('✘ 密码长度至少为 5');
    await m.type('5');
    await m.press(KEY.enter);
    await m.until('用户组:');
    await m.press(KEY.right); // user → guest
    await m.press(KEY.enter);
    await m.until('✔ 用户 listener 创建成功.');
    await m.until(/listener\s+游客/);
    expect(await roleOf('listener')).toBe('guest');
    const row = await app.repos.users.byName('listener');
    expect(await verifyPassword('12345', row!.password_hash)).toBe(true);
    m.view.unmount();
  });

  it('changes a password only when both entries are at least 5 characters and equal', async () => {
    const m = mount();
    await m.until('› admin');
    await m.press(KEY.down);
    await m.until('› listener');
    await m.press('p');
    await m.until('修改 listener 的密码');
    await m.type('new-pass-1');
    await m.press(KEY.enter);
    await m.until('确认新密码');
    await m.type('new-pass-2');
    await m.press(KEY.enter);
    await m.until('✘ 两次密码输入不一致');
    // back to the first entry
    await m.type('new-pass-1');
    await m.press(KEY.enter);
    await m.type('new-pass-1');
    await m.press(KEY.enter);
    await m.until('✔ 密码修改成功.');
    const row = await app.repos.users.byName('listener');
    expect(await verifyPassword('new-pass-1', row!.password_hash)).toBe(true);
    m.view.unmount();
  });

  it('changes a role, and shows the service refusing to demote the last admin', async () => {
    const m = mount();
    await m.until('› admin');
    await m.press(KEY.down);
    await m.press('r');
    await m.until('修改 listener 的角色');
    await m.press(KEY.up); // guest → user
    await m.press(KEY.enter);
    await m.until('✔ listener 的角色已改为 普通用户');
    expect(await roleOf('listener')).toBe('user');

    await m.press(KEY.up);
    await m.until('› admin');
    await m.press('r');
    await m.until('修改 admin 的角色');
    await m.press(KEY.down); // admin → user
    await m.press(KEY.enter);
    await m.until('✘ 不能取消最后一个管理员的管理员身份.');
    expect(await roleOf('admin')).toBe('admin');
    m.view.unmount();
  });

  it('deletes a user after y, keeps it after n or Esc', async () => {
    const m = mount();
    await m.until('› admin');
    await m.press(KEY.down);
    await m.press('d');
    await m.until('确定要删除用户 listener 吗？');
    await m.press('n');
    await m.until('[a] 添加');
    expect(await app.repos.users.byName('listener')).toBeDefined();
    await m.press('d');
    await m.until('[y/N]');
    await m.press(KEY.escape);
    await m.until('[a] 添加');
    expect(await app.repos.users.byName('listener')).toBeDefined();
    await m.press('d');
    await m.press('y');
    await m.until('✔ 用户 listener 已删除.');
    expect(await app.repos.users.byName('listener')).toBeUndefined();
    expect(m.frame()).not.toContain('› listener');
    m.view.unmount();
  });

  it('cancels a form with Esc, and quits with q', async () => {
    const m = mount();
    await m.until('› admin');
    await m.press('a');
    await m.until('添加用户');
    m.view.stdin.write('someone'); // a paste arrives as one chunk
    await m.until('用户名: someone');
    await m.press(KEY.escape);
    await m.until('[a] 添加');
    expect(await app.repos.users.byName('someone')).toBeUndefined();
    expect(m.onExit).not.toHaveBeenCalled();
    await m.press('q');
    expect(m.onExit).toHaveBeenCalledTimes(1);
    m.view.unmount();
  });
});
