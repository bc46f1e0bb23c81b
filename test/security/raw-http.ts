import http from 'node:http';
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request with the path sent exactly as given (fetch would normalise `//`, `./`, `../` and
 * percent-encodings before they reach the server).
 */
export function rawRequest(port: number, method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Accept: 'application/json', Connection: 'close', ...opts.headers };
    if (opts.body !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(opts.body));
    }
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

export interface OpenSocket {
  socket: Socket;
  /** Everything the server sent, once it closed the connection (or `timeoutMs` passed: then `closed` is false). */
  done: Promise<{ text: string; closed: boolean; ms: number }>;
  /** Everything received so far. */
  received(): string;
}

/**
 * A connection that sends `head` (request line and headers, without the blank line) and then `body`,
 * and keeps the connection open without sending more: a slow client.
 */
export function slowRequest(port: number, head: string, body = '', timeoutMs = 5000): OpenSocket {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  const start = Date.now();
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined); // the server may reset a connection whose body it did not read
  socket.write(`${head}\r\n\r\n${body}`);
  const done = new Promise<{ text: string; closed: boolean; ms: number }>((resolve) => {
    const timer = setTimeout(() => resolve({ text, closed: false, ms: Date.now() - start }), timeoutMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true, ms: Date.now() - start });
    });
  });
  return { socket, done, received: () => text };
}

/** The status code of a raw HTTP response text (0 when none arrived). */
export const statusOf = (text: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);

/** The JSON body of a raw HTTP response text. */
export const jsonOf = (text: string): unknown => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
