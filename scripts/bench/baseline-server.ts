/**
 * The benchmark's calibration server: bare node:http answering a small JSON body, a prebuilt 1 MB
 * buffer, or a 1 MB range streamed from a file (fs.createReadStream, as any Node server must), with
 * no framework and no database. Its numbers are the ceiling the machine, its current load and the
 * load generator allow; the real rows are read against them.
 *
 *   node --import tsx scripts/bench/baseline-server.ts [file-of-at-least-16-MB] [body-file]
 *
 * `/body` answers the whole body file (200, JSON), e.g. a large list the real server sends.
 */
import { createReadStream, readFileSync } from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream';
import type { AddressInfo } from 'node:net';

const json = Buffer.from(JSON.stringify({ works: [], pagination: { currentPage: 1, pageSize: 12, totalCount: 0 } }));
const mb = Buffer.alloc(1024 * 1024, 0x5a);
const body = process.argv[3] ? readFileSync(process.argv[3]) : json;

const server = http.createServer((req, res) => {
  const file = process.argv[2];
  if (req.url?.startsWith('/file') && file) {
    const k = Number(new URL(req.url, 'http://x').searchParams.get('k') ?? 0) % 16;
    res.writeHead(206, { 'Content-Type': 'audio/mpeg', 'Content-Length': mb.length, 'Content-Range': `bytes ${k * mb.length}-${(k + 1) * mb.length - 1}/${mb.length * 16}` });
    pipeline(createReadStream(file, { start: k * mb.length, end: (k + 1) * mb.length - 1 }), res, () => undefined);
    return;
  }
  if (req.url === '/body') {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
    return;
  }
  if (req.url === '/1mb') {
    res.writeHead(206, { 'Content-Type': 'audio/mpeg', 'Content-Length': mb.length, 'Content-Range': `bytes 0-${mb.length - 1}/${mb.length * 16}` });
    res.end(mb);
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': json.length });
  res.end(json);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`LISTENING ${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
