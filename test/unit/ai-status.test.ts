import { describe, expect, it } from 'vitest';
import { aggregateAiStatus, AI_STATUS_COUNT, AiStatus, aiStatusCode, aiStatusName, canRetry, isAiStatusCode, isAiStatusName, shouldPoll, type AiStatusName } from '../../server/domain/ai-status.js';

describe('AI status values', () => {
  it('keeps the contract numbers and spelling', () => {
    expect(AiStatus).toEqual({ NONE: 0, PENDING: 1, TRASCRIPTING: 2, SUCCESS: 3, ERROR: 4 });
    expect(AI_STATUS_COUNT).toBe(5);
  });

  it.each([
    [0, 'none'],
    [1, 'pending'],
    [2, 'transcribing'],
    [3, 'success'],
    [4, 'error'],
  ] as const)('%d ↔ %s', (code, name) => {
    expect(aiStatusName(code)).toBe(name);
    expect(aiStatusCode(name)).toBe(code);
  });

  it.each([-1, 5, 1.5, Number.NaN])('reads the unknown number %s as none', (code) => {
    expect(aiStatusName(code)).toBe('none');
    expect(isAiStatusCode(code)).toBe(false);
  });

  it('recognises names and codes', () => {
    expect(isAiStatusName('transcribing')).toBe(true);
    expect(isAiStatusName('TRASCRIPTING')).toBe(false);
    expect(isAiStatusName(2)).toBe(false);
    expect(isAiStatusCode(4)).toBe(true);
    expect(isAiStatusCode('4')).toBe(false);
  });
});

describe('aggregateAiStatus', () => {
  it.each<[string, (AiStatusName | number)[], AiStatusName, AiStatusName]>([
    // [case, statuses, folder result, file result]
    ['empty set', [], 'none', 'none'],
    ['only none', ['none', 'none'], 'none', 'none'],
    ['transcribing beats everything', ['success', 'error', 'pending', 'transcribing', 'none'], 'transcribing', 'transcribing'],
    ['pending beats success, error and none', ['success', 'pending', 'error'], 'pending', 'pending'],
    ['error vs success', ['success', 'error'], 'error', 'success'],
    ['success vs none', ['none', 'success'], 'success', 'success'],
    ['error vs none', ['error', 'none'], 'error', 'error'],
    ['numeric statuses', [AiStatus.SUCCESS, AiStatus.ERROR], 'error', 'success'],
    ['mixed numbers and names', [AiStatus.PENDING, 'success'], 'pending', 'pending'],
  ])('%s', (_name, statuses, folder, file) => {
    expect(aggregateAiStatus(statuses as (AiStatusName | 0 | 1 | 2 | 3 | 4)[], 'folder')).toBe(folder);
    expect(aggregateAiStatus(statuses as (AiStatusName | 0 | 1 | 2 | 3 | 4)[], 'file')).toBe(file);
  });

  it('accepts any iterable', () => {
    expect(aggregateAiStatus(new Set<AiStatusName>(['error', 'success']), 'file')).toBe('success');
  });
});

describe('polling and retry', () => {
  it.each<[AiStatusName, boolean, boolean]>([
    ['none', false, false],
    ['pending', true, true],
    ['transcribing', true, true],
    ['success', false, true],
    ['error', false, true],
  ])('%s: poll=%s retry=%s', (name, poll, retry) => {
    expect(shouldPoll(name)).toBe(poll);
    expect(shouldPoll(aiStatusCode(name))).toBe(poll);
    expect(canRetry(name)).toBe(retry);
    expect(canRetry(aiStatusCode(name))).toBe(retry);
  });
});
