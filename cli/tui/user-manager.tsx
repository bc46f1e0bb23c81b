/**
 * The Ink user manager of `kikoplay user` on a terminal: list, add, change password, change role,
 * delete — with the rules and messages of the web's user management: names and passwords of
 * at least 5 characters, unique names, group user or guest, a confirmed new password. Props in (an API
 * over UsersService), callbacks out; no database access here.
 */
import React, { useCallback, useEffect, useRef, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { cliText, codeSentence, errorText, type CliCatalog } from '../i18n/index.js';

export type ManagedRole = 'admin' | 'user' | 'guest';

export interface ManagedUser {
  name: string;
  role: ManagedRole;
  created_at?: string;
}

/** What the manager needs; rejects with an Error whose message is shown. */
export interface UserManagerApi {
  list(): Promise<ManagedUser[]>;
  create(input: { name: string; password: string; group: 'user' | 'guest' }): Promise<ManagedUser>;
  changePassword(name: string, newPassword: string): Promise<void>;
  setRole(name: string, role: ManagedRole): Promise<ManagedUser>;
  remove(name: string): Promise<void>;
}

const MIN = 5;
const ROLES: ManagedRole[] = ['admin', 'user', 'guest'];
const GROUPS: ('user' | 'guest')[] = ['user', 'guest'];

type Mode =
  | { kind: 'list' }
  | { kind: 'add'; step: 'name' | 'password' | 'group'; name: string; password: string; group: 'user' | 'guest' }
  | { kind: 'password'; user: string; step: 'new' | 'confirm'; first: string }
  | { kind: 'role'; user: string; choice: number }
  | { kind: 'delete'; user: string };

interface Message {
  tone: 'ok' | 'error';
  text: string;
}

/** Terminal columns of a text: CJK characters take two. */
const columnsOf = (text: string) => [...text].reduce((n, ch) => n + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1), 0);
const pad = (text: string, width: number) => {
  const clipped = text.length > width ? text.slice(0, width - 1) + '…' : text;
  return clipped + ' '.repeat(Math.max(1, width - columnsOf(clipped)));
};

/**
 * State whose latest value the key handler can read at once: keys can arrive faster than React
 * re-renders (a paste, a fast typist, a test), and a handler closed over the last render would see
 * stale text.
 */
function useLatest<T>(initial: T): [T, { readonly current: T }, (next: T | ((prev: T) => T)) => void] {
  const [value, setValue] = useState(initial);
  const ref = useRef(initial);
  const set = useCallback((next: T | ((prev: T) => T)) => {
    ref.current = typeof next === 'function' ? (next as (prev: T) => T)(ref.current) : next;
    setValue(ref.current);
  }, []);
  return [value, ref, set];
}

/** One line of typed text: printable input appended, backspace removes, masked for passwords. */
function Field({ label, value, masked = false }: { label: string; value: string; masked?: boolean }) {
  return (
    <Text>
      {label}: <Text color="cyan">{masked ? '*'.repeat(value.length) : value}</Text>
      <Text inverse> </Text>
    </Text>
  );
}

export interface UserManagerProps {
  api: UserManagerApi;
  onExit: () => void;
  /** Terminal width (defaults to 80). */
  width?: number;
  /** The catalogue to speak (defaults to the run's language). */
  texts?: CliCatalog;
}

export function UserManager({ api, onExit, width = 80, texts }: UserManagerProps) {
  const t = texts ?? cliText();
  const UM = t.userManager;
  const [users, usersRef, setUsers] = useLatest<ManagedUser[] | null>(null);
  const [cursor, cursorRef, setCursor] = useLatest(0);
  const [mode, modeRef, setModeState] = useLatest<Mode>({ kind: 'list' });
  const [draft, draftRef, setDraft] = useLatest('');
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, busyRef, setBusy] = useLatest(false);
  const setMode = setModeState;

  const reload = useCallback(async () => {
    try {
      const list = await api.list();
      setUsers(list);
      setCursor((c) => Math.min(c, Math.max(0, list.length - 1)));
    } catch (err) {
      setUsers([]);
      setMessage({ tone: 'error', text: errorText(err, t) });
    }
  }, [api, setUsers, setCursor, t]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const toList = (msg: Message | null = null) => {
    setMode({ kind: 'list' });
    setDraft('');
    setMessage(msg);
  };

  /** Run a service call; on success reload the list and show `ok`, on failure show the error. */
  const act = async (fn: () => Promise<string>, onError: (text: string) => void = (text) => toList({ tone: 'error', text })) => {
    setBusy(true);
    try {
      const ok = await fn();
      await reload();
      toList({ tone: 'ok', text: ok });
    } catch (err) {
      onError(errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  const submitText = (value: string) => {
    const mode = modeRef.current;
    const users = usersRef.current;
    if (mode.kind === 'add' && mode.step === 'name') {
      const name = value.trim();
      if (name.length < MIN) return setMessage({ tone: 'error', text: codeSentence('USERNAME_TOO_SHORT', { min: MIN }, t) });
      if (users?.some((u) => u.name === name)) return setMessage({ tone: 'error', text: codeSentence('NAME_TAKEN', {}, t) });
      setMessage(null);
      setDraft('');
      return setMode({ ...mode, name, step: 'password' });
    }
    if (mode.kind === 'add' && mode.step === 'password') {
      if (value.length < MIN) return setMessage({ tone: 'error', text: codeSentence('PASSWORD_TOO_SHORT', { min: MIN }, t) });
      setMessage(null);
      setDraft('');
      return setMode({ ...mode, password: value, step: 'group' });
    }
    if (mode.kind === 'password' && mode.step === 'new') {
      if (value.length < MIN) return setMessage({ tone: 'error', text: codeSentence('PASSWORD_TOO_SHORT', { min: MIN }, t) });
      setMessage(null);
      setDraft('');
      return setMode({ ...mode, first: value, step: 'confirm' });
    }
    if (mode.kind === 'password' && mode.step === 'confirm') {
      if (value.length < MIN) return setMessage({ tone: 'error', text: codeSentence('PASSWORD_TOO_SHORT', { min: MIN }, t) });
      if (value !== mode.first) {
        setDraft('');
        setMode({ ...mode, first: '', step: 'new' });
        return setMessage({ tone: 'error', text: UM.mismatch });
      }
      const user = mode.user;
      return void act(async () => {
        await api.changePassword(user, value);
        return UM.passwordChanged;
      });
    }
  };

  useInput(
    (input, key) => {
      if (busyRef.current) return;
      const mode = modeRef.current;
      const users = usersRef.current;
      const selected = users?.[cursorRef.current];
      if (mode.kind === 'list') {
        if (key.upArrow || input === 'k') setCursor((c) => Math.max(0, c - 1));
        else if (key.downArrow || input === 'j') setCursor((c) => Math.min((users?.length ?? 1) - 1, c + 1));
        else if (input === 'q' || key.escape) onExit();
        else if (input === 'a') {
          setMessage(null);
          setDraft('');
          setMode({ kind: 'add', step: 'name', name: '', password: '', group: 'user' });
        } else if (selected && input === 'p') {
          setMessage(null);
          setDraft('');
          setMode({ kind: 'password', user: selected.name, step: 'new', first: '' });
        } else if (selected && input === 'r') {
          setMessage(null);
          setMode({ kind: 'role', user: selected.name, choice: ROLES.indexOf(selected.role) });
        } else if (selected && input === 'd') {
          setMessage(null);
          setMode({ kind: 'delete', user: selected.name });
        }
        return;
      }
      if (key.escape) return toList();
      if (mode.kind === 'role') {
        if (key.upArrow || key.leftArrow) setMode({ ...mode, choice: (mode.choice + ROLES.length - 1) % ROLES.length });
        else if (key.downArrow || key.rightArrow || key.tab) setMode({ ...mode, choice: (mode.choice + 1) % ROLES.length });
        else if (key.return) {
          const role = ROLES[mode.choice];
          const user = mode.user;
          void act(async () => {
            const u = await api.setRole(user, role);
            return UM.roleChanged(u.name, UM.roles[u.role]);
          });
        }
        return;
      }
      if (mode.kind === 'delete') {
        if (input === 'y' || input === 'Y') {
          const user = mode.user;
          void act(async () => {
            await api.remove(user);
            return UM.deleted(user);
          });
        } else if (input === 'n' || input === 'N' || key.return) toList();
        return;
      }
      if (mode.kind === 'add' && mode.step === 'group') {
        if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.tab) setMode({ ...mode, group: mode.group === 'user' ? 'guest' : 'user' });
        else if (input === 'u' || input === 'g') setMode({ ...mode, group: input === 'u' ? 'user' : 'guest' });
        else if (key.return) {
          const { name, password, group } = mode;
          void act(
            async () => {
              const u = await api.create({ name, password, group });
              return UM.created(u.name);
            },
            (text) => {
              // the server's word (e.g. the name was taken meanwhile): back to the name
              setDraft(name);
              setMode({ ...mode, step: 'name' });
              setMessage({ tone: 'error', text });
            },
          );
        }
        return;
      }
      // a text step
      if (key.return) return submitText(draftRef.current);
      if (key.backspace || key.delete) return setDraft((d) => [...d].slice(0, -1).join(''));
      if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.tab) return;
      const printable = input.replace(/[\u0000-\u001f\u007f]/g, '');
      if (printable) setDraft((d) => d + printable);
    },
    { isActive: true },
  );

  const nameWidth = Math.max(12, Math.min(32, width - 40));
  // wide enough for the longest role name of the language
  const roleWidth = Math.max(10, ...ROLES.map((r) => columnsOf(UM.roles[r]) + 2));

  return (
    <Box flexDirection="column">
      <Text bold>{UM.title}</Text>
      <Box flexDirection="column" marginTop={1}>
        {users === null ? (
          <Text color="gray">{UM.loading}</Text>
        ) : users.length === 0 ? (
          <Text color="gray">{UM.empty}</Text>
        ) : (
          <>
            <Text color="gray">
              {'  '}
              {pad(UM.columnName, nameWidth)}
              {pad(UM.columnRole, roleWidth)}
              {UM.columnCreated}
            </Text>
            {users.map((u, i) => (
              <Text key={u.name} color={i === cursor ? 'cyan' : undefined} bold={i === cursor}>
                {i === cursor ? '› ' : '  '}
                {pad(u.name, nameWidth)}
                {pad(UM.roles[u.role], roleWidth)}
                {u.created_at ?? ''}
              </Text>
            ))}
          </>
        )}
      </Box>

      <Box flexDirection="column" marginTop={1}>
        {mode.kind === 'list' && <Text color="gray">{UM.keys}</Text>}
        {mode.kind === 'add' && (
          <>
            <Text bold>{UM.addTitle}</Text>
            {mode.step === 'name' ? (
              <Field label={UM.name} value={draft} />
            ) : (
              <Text>
                {UM.name}: {mode.name}
              </Text>
            )}
            {mode.step === 'password' && <Field label={UM.password} value={draft} masked />}
            {mode.step === 'group' && (
              <>
                <Text>
                  {UM.password}: {'*'.repeat(mode.password.length)}
                </Text>
                <Text>
                  {UM.group}:{' '}
                  {GROUPS.map((g) => (
                    <Text key={g} color={g === mode.group ? 'cyan' : 'gray'} inverse={g === mode.group}>
                      {` ${g} `}
                    </Text>
                  ))}
                  <Text color="gray"> {UM.toggle}</Text>
                </Text>
              </>
            )}
            <Text color="gray">{UM.formKeys}</Text>
          </>
        )}
        {mode.kind === 'password' && (
          <>
            <Text bold>{UM.passwordTitle(mode.user)}</Text>
            {mode.step === 'new' ? (
              <Field label={UM.newPassword} value={draft} masked />
            ) : (
              <Text>
                {UM.newPassword}: {'*'.repeat(mode.first.length)}
              </Text>
            )}
            {mode.step === 'confirm' && <Field label={UM.confirmPassword} value={draft} masked />}
            <Text color="gray">{UM.formKeys}</Text>
          </>
        )}
        {mode.kind === 'role' && (
          <>
            <Text bold>{UM.roleTitle(mode.user)}</Text>
            {ROLES.map((r, i) => (
              <Text key={r} color={i === mode.choice ? 'cyan' : undefined}>
                {i === mode.choice ? '› ' : '  '}
                {UM.roles[r]} ({r})
              </Text>
            ))}
            <Text color="gray">
              {UM.select}
              {'  '}
              {UM.formKeys}
            </Text>
          </>
        )}
        {mode.kind === 'delete' && <Text color="yellow">{UM.confirmDelete(mode.user)}</Text>}
      </Box>

      {busy && <Text color="gray">…</Text>}
      {message && (
        <Text color={message.tone === 'ok' ? 'green' : 'red'}>
          {message.tone === 'ok' ? '✔ ' : '✘ '}
          {message.text}
        </Text>
      )}
    </Box>
  );
}
