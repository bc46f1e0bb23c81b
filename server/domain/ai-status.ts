/**
 * AI lyric task status (docs/API.md#ai-lyric-tasks).
 * The wire and the database use numbers; the UI speaks of the textual names.
 */
export const AiStatus = {
  NONE: 0,
  PENDING: 1,
  /** Acquired by a worker. The spelling is the contract's. */
  TRASCRIPTING: 2,
  SUCCESS: 3,
  ERROR: 4,
} as const;

export type AiStatusCode = (typeof AiStatus)[keyof typeof AiStatus];
export type AiStatusName = 'none' | 'pending' | 'transcribing' | 'success' | 'error';

/** Number of status values (the worker's `COUNT`). */
export const AI_STATUS_COUNT = 5;

const NAMES: readonly AiStatusName[] = ['none', 'pending', 'transcribing', 'success', 'error'];

export const isAiStatusCode = (value: unknown): value is AiStatusCode => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < AI_STATUS_COUNT;

export const isAiStatusName = (value: unknown): value is AiStatusName => typeof value === 'string' && (NAMES as readonly string[]).includes(value);

/** 2 → 'transcribing'. Unknown numbers read as 'none'. */
export function aiStatusName(code: number): AiStatusName {
  return isAiStatusCode(code) ? NAMES[code] : 'none';
}

/** 'transcribing' → 2. */
export function aiStatusCode(name: AiStatusName): AiStatusCode {
  return NAMES.indexOf(name) as AiStatusCode;
}

const asName = (status: AiStatusCode | AiStatusName): AiStatusName => (typeof status === 'number' ? aiStatusName(status) : status);

/**
 * What a set of tasks amounts to: transcribing beats pending beats the rest; then
 * - for a folder, error beats success (one failure in the folder must show);
 * - for a single audio file, success beats error (one good lyric for the file is enough);
 * an empty set is none.
 */
export function aggregateAiStatus(statuses: Iterable<AiStatusCode | AiStatusName>, scope: 'folder' | 'file'): AiStatusName {
  const order: readonly AiStatusName[] = scope === 'folder' ? ['transcribing', 'pending', 'error', 'success', 'none'] : ['transcribing', 'pending', 'success', 'error', 'none'];
  let best: AiStatusName = 'none';
  for (const status of statuses) {
    const name = asName(status);
    if (order.indexOf(name) < order.indexOf(best)) best = name;
  }
  return best;
}

/** The tree polls every 10 s while the aggregate is pending or transcribing; it stops otherwise. */
export const shouldPoll = (status: AiStatusCode | AiStatusName): boolean => {
  const name = asName(status);
  return name === 'pending' || name === 'transcribing';
};

/** A task can be retried when its status is pending or higher (anything but none). */
export const canRetry = (status: AiStatusCode | AiStatusName): boolean => aiStatusCode(asName(status)) >= AiStatus.PENDING;
