/**
 * Limits of the HTTP layer against slow or oversized requests. The defaults suit a home server behind
 * a browser, the mobile apps and the transcription worker; tests pass smaller values to
 * `startHttpServer` to exercise them quickly.
 */
export interface HttpLimits {
  /** Whole request (headers and body) must arrive within this (node's `server.requestTimeout`). */
  requestTimeoutMs: number;
  /** Request headers must arrive within this (node's `server.headersTimeout`). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (node's `server.keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
  /** A body a route reads must arrive within this, or the request is answered 408 and closed. */
  bodyTimeoutMs: number;
  /** Open connections (HTTP and websocket) beyond this are refused (node's `server.maxConnections`). */
  maxConnections: number;
  /** Body bytes all requests together may be receiving at once; beyond it a request is answered 503. */
  maxBodyBytesInFlight: number;
  /**
   * How fast one user's stored data (play states, reviews) is accepted: bytes a second after a burst;
   * a write over it waits up to `userWriteMaxWaitMs`, then is answered 429 (see http/write-pace.ts).
   */
  userWriteBytesPerSecond: number;
  userWriteBurstBytes: number;
  userWriteMaxWaitMs: number;
}

export const KB = 1024;
export const MB = 1024 * KB;

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 15_000,
  keepAliveTimeoutMs: 10_000,
  bodyTimeoutMs: 20_000,
  maxConnections: 1000,
  maxBodyBytesInFlight: 32 * MB,
  // the web app saves a play state of a few KB every few seconds: far below 64 KB a second
  userWriteBytesPerSecond: 64 * KB,
  userWriteBurstBytes: 1 * MB,
  userWriteMaxWaitMs: 5000,
};

/** The body limit of a route that declares none. */
export const DEFAULT_BODY_LIMIT = 16 * KB;

export const httpLimits = (overrides: Partial<HttpLimits> = {}): HttpLimits => ({ ...DEFAULT_HTTP_LIMITS, ...overrides });
