import { describe, expect, it } from 'vitest';
import { formatLogLine, logFormatFrom } from '../../server/app/log-format.js';
import { reachableUrls } from '../../cli/commands/serve.js';

describe('human log lines', () => {
  const at = new Date(2026, 0, 2, 3, 4, 5).getTime();

  it('puts time, level and message first, then the fields, on one line', () => {
    const line = formatLogLine(JSON.stringify({ level: 40, time: at, msg: 'config.json changed but is invalid', url: 'http://x:1', n: 3, ok: true, name: 'a b' }), false);
    expect(line).toBe('03:04:05 WARN  config.json changed but is invalid url=http://x:1 n=3 ok=true name="a b"\n');
  });

  it('shows an error by its message (its stack only when debugging)', () => {
    const rec = { level: 50, time: at, msg: 'failed', err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x', code: 'EACCES' } };
    expect(formatLogLine(JSON.stringify(rec), false)).toBe('03:04:05 ERROR failed err="boom (EACCES)"\n');
    expect(formatLogLine(JSON.stringify(rec), true)).toBe('03:04:05 ERROR failed err="boom (EACCES)"\nError: boom\n    at x\n');
  });

  it('passes a line that is not JSON through', () => {
    expect(formatLogLine('plain text', false)).toBe('plain text\n');
  });

  it('is chosen by the environment, else by whether the log goes to a terminal', () => {
    expect(logFormatFrom({ KIKOPLAY_LOG_FORMAT: 'json' }, { isTTY: true })).toBe('json');
    expect(logFormatFrom({ KIKOPLAY_LOG_FORMAT: 'Pretty' }, { isTTY: false })).toBe('pretty');
    expect(logFormatFrom({}, { isTTY: true })).toBe('pretty');
    expect(logFormatFrom({}, {})).toBe('json');
  });
});

describe('the addresses serve prints', () => {
  const nics = {
    lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }],
    eth0: [
      { address: '192.168.1.5', family: 'IPv4', internal: false },
      { address: 'fd00::5', family: 'IPv6', internal: false },
      { address: 'fe80::1', family: 'IPv6', internal: false },
    ],
  } as unknown as Parameters<typeof reachableUrls>[2];

  it('lists every outside address when bound to all interfaces (IPv4 only for 0.0.0.0)', () => {
    expect(reachableUrls(undefined, 8888, nics)).toEqual(['http://192.168.1.5:8888', 'http://[fd00::5]:8888']);
    expect(reachableUrls('::', 8888, nics)).toEqual(['http://192.168.1.5:8888', 'http://[fd00::5]:8888']);
    expect(reachableUrls('0.0.0.0', 8888, nics)).toEqual(['http://192.168.1.5:8888']);
  });

  it('names the bound host alone otherwise', () => {
    expect(reachableUrls('127.0.0.1', 80, nics)).toEqual(['http://127.0.0.1:80']);
    expect(reachableUrls('::1', 80, nics)).toEqual(['http://[::1]:80']);
  });
});
