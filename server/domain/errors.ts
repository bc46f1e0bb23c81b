/**
 * The one error type of kikoplay. Services throw it; the HTTP error middleware renders it as
 * `{ "error": message }` (or `{ "errors": [{ msg, param, location }] }` for the 422 validation form the
 * kikoeru clients expect on login and user management); the CLI prints `message` and exits non-zero.
 */
export type ErrorCode =
  'bad_request' | 'validation' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'payload_too_large' | 'range_not_satisfiable' | 'too_many_requests' | 'unavailable' | 'internal';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  validation: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  range_not_satisfiable: 416,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

/** One field's problem. Never carries the value sent: error bodies do not echo input. */
export interface FieldError {
  msg: string;
  param: string;
  location: 'body' | 'query' | 'params';
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Field errors, rendered as `{ errors: [...] }` when the code is `validation`. */
  readonly fields?: FieldError[];
  /** Extra response headers (e.g. WWW-Authenticate, Retry-After). */
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, opts: { fields?: FieldError[]; headers?: Record<string, string>; status?: number } = {}) {
    const status = opts.status ?? STATUS[code];
    // A 4xx is an expected answer, not a fault: no stack trace is captured (under a flood of refused
    // requests, capturing one costs more than writing the answer).
    const engine = Error as { stackTraceLimit?: number }; // V8's; elsewhere the assignment is harmless
    const stackTraceLimit = engine.stackTraceLimit;
    if (status < 500) engine.stackTraceLimit = 0;
    super(message);
    engine.stackTraceLimit = stackTraceLimit;
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.fields = opts.fields;
    this.headers = opts.headers;
  }
}

export const badRequest = (message: string) => new AppError('bad_request', message);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const notFound = (message: string) => new AppError('not_found', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const unauthorized = (message: string) => new AppError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer realm="Authorization Required"' } });
export const validationFailed = (fields: FieldError[]) => new AppError('validation', fields[0]?.msg ?? 'Invalid value', { fields });

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;
