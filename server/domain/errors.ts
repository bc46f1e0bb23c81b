import type { ApiErrorCode, ErrorParams } from './error-codes.js';

/**
 * The one error type of kikoplay. Services throw it; the HTTP error middleware renders it as
 * `{ "error": message, "code": CODE, "field"?, "params"? }` (plus `"errors": [{ msg, param, location, code? }]`
 * for the 422 validation form the kikoeru clients expect on login and user management); the CLI
 * prints `message` and exits non-zero. `kind` decides the status; `code` (server/domain/error-codes.ts)
 * is the stable machine code the web app translates.
 */
export type ErrorKind =
  'bad_request' | 'validation' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'payload_too_large' | 'range_not_satisfiable' | 'too_many_requests' | 'unavailable' | 'internal';

const STATUS: Record<ErrorKind, number> = {
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

/** The code of an error that names none: what its kind (and status) says. */
function genericCode(kind: ErrorKind, status: number): ApiErrorCode {
  switch (kind) {
    case 'bad_request':
      return status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : status === 408 ? 'REQUEST_TIMEOUT' : 'BAD_REQUEST';
    case 'validation':
      return 'FIELD_INVALID';
    case 'unauthorized':
      return 'UNAUTHORIZED';
    case 'forbidden':
      return 'FORBIDDEN';
    case 'not_found':
      return 'NOT_FOUND';
    case 'conflict':
      return 'CONFLICT';
    case 'payload_too_large':
      return 'PAYLOAD_TOO_LARGE';
    case 'range_not_satisfiable':
      return 'RANGE_NOT_SATISFIABLE';
    case 'too_many_requests':
      return 'TOO_MANY_REQUESTS';
    case 'unavailable':
      return 'UNAVAILABLE';
    case 'internal':
      return 'INTERNAL';
  }
}

/** One field's problem. Never carries the value sent: error bodies do not echo input. */
export interface FieldError {
  msg: string;
  param: string;
  location: 'body' | 'query' | 'params';
  /** The machine code of this field's problem (e.g. USERNAME_TOO_SHORT). */
  code?: ApiErrorCode;
  params?: ErrorParams;
}

/** What the web app needs to say the error in the reader's language. */
export interface ErrorDetail {
  /** Stable machine code; without one, the generic code of the kind (BAD_REQUEST, NOT_FOUND, …). */
  code?: ApiErrorCode;
  /** The request field at fault (a name from the API, never a value). */
  field?: string;
  /** Numbers and server-known names the sentence needs (never client input). */
  params?: ErrorParams;
}

export interface AppErrorOptions extends ErrorDetail {
  fields?: FieldError[];
  headers?: Record<string, string>;
  status?: number;
}

export class AppError extends Error {
  /** The kind of failure; it decides the HTTP status. */
  readonly kind: ErrorKind;
  /** The stable machine code sent as `code`. */
  readonly code: ApiErrorCode;
  readonly field?: string;
  readonly params?: ErrorParams;
  readonly status: number;
  /** Field errors, rendered as `{ errors: [...] }` when the kind is `validation`. */
  readonly fields?: FieldError[];
  /** Extra response headers (e.g. WWW-Authenticate, Retry-After). */
  readonly headers?: Record<string, string>;

  constructor(kind: ErrorKind, message: string, opts: AppErrorOptions = {}) {
    const status = opts.status ?? STATUS[kind];
    // A 4xx is an expected answer, not a fault: no stack trace is captured (under a flood of refused
    // requests, capturing one costs more than writing the answer).
    const engine = Error as { stackTraceLimit?: number }; // V8's; elsewhere the assignment is harmless
    const stackTraceLimit = engine.stackTraceLimit;
    if (status < 500) engine.stackTraceLimit = 0;
    super(message);
    engine.stackTraceLimit = stackTraceLimit;
    this.name = 'AppError';
    this.kind = kind;
    const first = opts.fields?.[0];
    this.code = opts.code ?? first?.code ?? genericCode(kind, status);
    this.field = opts.field ?? first?.param;
    this.params = opts.params ?? first?.params;
    this.status = status;
    this.fields = opts.fields;
    this.headers = opts.headers;
  }
}

export const badRequest = (message: string, detail?: ErrorDetail) => new AppError('bad_request', message, detail);
export const forbidden = (message: string, detail?: ErrorDetail) => new AppError('forbidden', message, detail);
export const notFound = (message: string, detail?: ErrorDetail) => new AppError('not_found', message, detail);
export const conflict = (message: string, detail?: ErrorDetail) => new AppError('conflict', message, detail);
/** A 400 naming the request field at fault. */
export const fieldInvalid = (message: string, field: string, code: ApiErrorCode = 'FIELD_INVALID', params?: ErrorParams) => new AppError('bad_request', message, { code, field, params });
export const unauthorized = (message: string, detail?: ErrorDetail) => new AppError('unauthorized', message, { ...detail, headers: { 'WWW-Authenticate': 'Bearer realm="Authorization Required"' } });
export const validationFailed = (fields: FieldError[]) => new AppError('validation', fields[0]?.msg ?? 'Invalid value', { fields });

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;
