/**
 * The metadata sites (DLsite, its image host, HVDB, asmr.one) down, for the servers and CLI runs of the
 * browser tests: a loopback server that resets every connection ("DLsite unreachable": metadata fails
 * fast, the works are still added), or holds every request open while `hang(true)` is on (so a refresh
 * of the library's metadata runs until it is killed). `deadSites()` registers its own beforeAll (start)
 * and afterAll (held answers dropped, server closed); read `env` in the tests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** The env that points every metadata site of a `kikoplay serve` or `kikoplay scan` at `base`. */
export const sitesAt = (base: string): NodeJS.ProcessEnv => ({
  KIKOPLAY_DLSITE_BASE_URL: `${base}/dlsite`,
  KIKOPLAY_DLSITE_IMAGE_BASE_URL: `${base}/img`,
  KIKOPLAY_HVDB_BASE_URL: `${base}/hvdb`,
  KIKOPLAY_ASMR_ONE_BASE_URL: `${base}/asmr`,
});

export interface DeadSites {
  /** The sites at the fake server, no retries, and timeouts long enough that a held request stays held. */
  readonly env: NodeJS.ProcessEnv;
  /** On: requests are held open (until `hang(false)` or the end of the file); off (the start): reset. */
  hang(on: boolean): void;
  /** How many requests are held open now. */
  readonly held: number;
  /** Drop the requests held open now (their connections are destroyed). */
  dropHeld(): void;
}

export function deadSites(): DeadSites {
  let hanging = false;
  let env: NodeJS.ProcessEnv | undefined;
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    if (hanging) {
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    req.socket.destroy(); // "DLsite unreachable"
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    env = {
      ...sitesAt(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
      KIKOPLAY_RETRY: '0',
      KIKOPLAY_RETRY_DELAY: '0',
      KIKOPLAY_DLSITE_TIMEOUT: '120000',
      KIKOPLAY_HVDB_TIMEOUT: '120000',
    };
  });

  const dropHeld = () => {
    for (const res of held) res.destroy();
  };

  afterAll(() => {
    dropHeld();
    server.closeAllConnections();
    server.close();
  });

  return {
    get env() {
      if (!env) throw new Error("the dead sites are not started yet (deadSites's beforeAll)");
      return env;
    },
    hang(on) {
      hanging = on;
    },
    get held() {
      return held.size;
    },
    dropHeld,
  };
}
