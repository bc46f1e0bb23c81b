import { describe, expect, it } from 'vitest';
import { AppError, badRequest } from '../../server/domain/errors.js';

describe('AppError', () => {
  it('captures no stack frames for a 4xx answer (an expected outcome), and keeps them for a 5xx', () => {
    const refused = new AppError('too_many_requests', 'slow down');
    expect(refused.status).toBe(429);
    expect(refused.stack).not.toMatch(/\n\s+at /);
    expect(badRequest('bad').stack).not.toMatch(/\n\s+at /);
    const fault = new AppError('internal', 'broken');
    expect(fault.stack).toMatch(/\n\s+at /);
    // the process-wide limit is left as it was
    const plain = new Error('plain');
    expect(plain.stack).toMatch(/\n\s+at /);
  });

  it('keeps its message, code, status and headers', () => {
    const e = new AppError('unavailable', 'busy', { headers: { 'Retry-After': '3' } });
    expect(e).toBeInstanceOf(Error);
    expect([e.message, e.kind, e.code, e.status, e.headers]).toEqual(['busy', 'unavailable', 'UNAVAILABLE', 503, { 'Retry-After': '3' }]);
  });
});
