/**
 * The admin socket's error frames and refusing closes in the interface language
 * (web/src/features/admin/socket-text.ts): by the frame's `reason` (an API error code), with the
 * server's Chinese text kept in zh-CN and the frame's own text for a server that sends no reason.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '../../server/contract/error-text/index.js';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORIZED } from '../../server/contract/realtime.js';
import { socketCloseText, socketErrorText } from '../../web/src/features/admin/socket-text.js';

const notAdmin = { message: '只有 admin 账号能登录管理后台.', code: CLOSE_FORBIDDEN, reason: 'ADMIN_ONLY' };

describe('admin socket error texts', () => {
  it('says a refusal in the interface language, keeping the server text in zh-CN', () => {
    expect(socketErrorText(notAdmin, 'zh-CN')).toBe('只有 admin 账号能登录管理后台.');
    expect(socketErrorText(notAdmin, 'en')).toBe(ERROR_MESSAGES.en.ADMIN_ONLY);
    expect(socketErrorText(notAdmin, 'ja')).toBe(ERROR_MESSAGES.ja.ADMIN_ONLY);
  });

  it('says the English server texts in Chinese too', () => {
    const noToken = { message: 'No auth token', code: CLOSE_UNAUTHORIZED, reason: 'TOKEN_MISSING' };
    expect(socketErrorText(noToken, 'zh-CN')).toBe(ERROR_MESSAGES['zh-CN'].TOKEN_MISSING);
    expect(socketErrorText({ message: 'invalid message', reason: 'BAD_REQUEST' }, 'zh-CN')).toBe(ERROR_MESSAGES['zh-CN'].BAD_REQUEST);
  });

  it('says the busy answer in the interface language', () => {
    const busy = { message: '消息过多，请稍后再试', reason: 'TOO_MANY_REQUESTS' };
    expect(socketErrorText(busy, 'zh-CN')).toBe('消息过多，请稍后再试');
    expect(socketErrorText(busy, 'en')).toBe(ERROR_MESSAGES.en.TOO_MANY_REQUESTS);
  });

  it("falls back to the frame's text without a known reason", () => {
    expect(socketErrorText({ message: 'something new', reason: 'NO_SUCH_CODE' }, 'en')).toBe('something new');
    expect(socketErrorText({ message: 'older server' }, 'ja')).toBe('older server');
  });

  it('says a refusing close without a frame by its close code', () => {
    expect(socketCloseText(CLOSE_FORBIDDEN, '', 'en')).toBe(ERROR_MESSAGES.en.ADMIN_ONLY);
    expect(socketCloseText(CLOSE_UNAUTHORIZED, 'invalid token', 'ja')).toBe(ERROR_MESSAGES.ja.SESSION_EXPIRED);
    expect(socketCloseText(CLOSE_FORBIDDEN, '只有 admin 账号能登录管理后台.', 'zh-CN')).toBe('只有 admin 账号能登录管理后台.');
  });
});
