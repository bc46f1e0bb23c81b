import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import os from 'node:os';
import { AppError } from '../domain/errors.js';

/**
 * Which requests come from where they claim, one policy for the HTTP middleware and the admin
 * socket's upgrade (issue: cross-site requests and DNS rebinding):
 *
 * - Host: the name a browser used must be this server's — an IP literal, `localhost` (and
 *   `*.localhost`), the address it listens on, the machine's host name, or a name listed in
 *   `publicHosts`. A page on attacker.example whose name was re-pointed at this server sends
 *   `Host: attacker.example` and is refused. With `behindProxy`, `X-Forwarded-Host` is checked too.
 * - Origin, for requests that change something (POST/PUT/PATCH/DELETE and socket upgrades): a browser
 *   names the page that sent them; it must be this server (same host and port as the request) or one
 *   listed in `allowedOrigins`. Without `Origin`, `Sec-Fetch-Site: cross-site`/`same-site` is refused.
 *   Requests with neither header (native kikoeru clients, the AI worker, curl) are not browsers and
 *   pass.
 */
export interface OriginPolicyConfig {
  publicHosts: readonly string[];
  allowedOrigins: readonly string[];
  behindProxy: boolean;
}

export interface RequestFacts {
  method: string;
  headers: IncomingHttpHeaders;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]']);

/** A value from a request, fit to quote in an error message. */
const quote = (value: string) => JSON.stringify(value.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 120));

function firstValue(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  const first = v?.split(',')[0]?.trim();
  return first || undefined;
}

/** `name[:port]` / `[v6]:port` → lower-case host name (no brackets, no trailing dot) and port ('' = default). */
export function parseHostHeader(value: string): { hostname: string; port: string } | null {
  if (!value || /[\s/\\?#@]/.test(value)) return null;
  try {
    const url = new URL(`http://${value}`);
    return {
      hostname: url.hostname
        .replace(/^\[|\]$/g, '')
        .replace(/\.$/, '')
        .toLowerCase(),
      port: normalPort(url.port),
    };
  } catch {
    return null;
  }
}

/** 80 and 443 are the default port of one scheme or the other: both compare as "default". */
const normalPort = (port: string) => (port === '80' || port === '443' ? '' : port);

export class OriginPolicy {
  private readonly ownNames: Set<string>;

  constructor(
    private readonly config: () => OriginPolicyConfig,
    listenHost?: string,
  ) {
    const machine = os.hostname().toLowerCase();
    this.ownNames = new Set(['localhost', machine, `${machine}.local`]);
    const listen = listenHost
      ?.trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, '');
    if (listen && !WILDCARD_HOSTS.has(listen)) this.ownNames.add(listen);
  }

  /** True when `hostname` (already lower-case, no port) names this server. */
  isOwnHostName(hostname: string): boolean {
    if (isIP(hostname) || this.ownNames.has(hostname) || hostname.endsWith('.localhost')) return true;
    return this.config().publicHosts.some((h) => (parseHostHeader(h.trim())?.hostname ?? h.trim().toLowerCase()) === hostname);
  }

  /** The Host (and, behind a proxy, X-Forwarded-Host) check. Null when the request may go on. */
  checkHost(headers: IncomingHttpHeaders): AppError | null {
    const names = [headers.host];
    if (this.config().behindProxy) names.push(firstValue(headers['x-forwarded-host']));
    for (const raw of names) {
      if (raw === undefined) continue;
      const parsed = parseHostHeader(raw);
      if (parsed && this.isOwnHostName(parsed.hostname)) continue;
      const name = parsed?.hostname ?? raw;
      return new AppError(
        'forbidden',
        `拒绝主机名 ${quote(name)} 的请求（它不是本服务器的地址，可能是 DNS 重绑定攻击）。若这是本服务器的公开域名，请把它加入配置 publicHosts，例如 kikoplay config set publicHosts '["${parsed?.hostname ?? 'example.com'}"]'`,
        { code: 'HOST_NOT_ALLOWED', status: 421 },
      );
    }
    return null;
  }

  /**
   * The Origin / Sec-Fetch-Site check of a request that changes something (`unsafe`: a socket upgrade
   * counts as one whatever its method). Null when the request may go on.
   */
  checkOrigin(req: RequestFacts, unsafe = !SAFE_METHODS.has(req.method.toUpperCase())): AppError | null {
    if (!unsafe) return null;
    const origin = firstValue(req.headers.origin);
    const site = firstValue(req.headers['sec-fetch-site'])?.toLowerCase();
    if (origin === undefined) {
      if (site === 'cross-site' || site === 'same-site') return forbiddenOrigin(`Sec-Fetch-Site: ${site}`, null);
      return null;
    }
    // under `Referrer-Policy: no-referrer` a browser sends `Origin: null` for its own page's form posts and
    // beacons; Sec-Fetch-Site (which no page can set) still says whether the sender was this origin
    if (origin === 'null' && site === 'same-origin') return null;
    let url: URL | null = null;
    try {
      url = origin === 'null' ? null : new URL(origin);
    } catch {
      url = null;
    }
    if (!url || !/^https?:$/.test(url.protocol)) return forbiddenOrigin(origin, null);
    if (this.config().allowedOrigins.some((o) => sameOriginString(o, url.origin))) return null;
    const target = this.effectiveHost(req.headers);
    if (target && target.hostname === url.hostname.replace(/^\[|\]$/g, '').toLowerCase() && target.port === normalPort(url.port)) return null;
    return forbiddenOrigin(origin, url.origin);
  }

  /**
   * Host then Origin: what the HTTP middleware and the socket upgrade both ask. `always`: the Origin
   * check whatever the method (a socket upgrade; the Subsonic API with auth off, whose GETs change things).
   */
  check(req: RequestFacts, opts: { always?: boolean } = {}): AppError | null {
    return this.checkHost(req.headers) ?? this.checkOrigin(req, opts.always ? true : undefined);
  }

  /** The host the client addressed: X-Forwarded-Host behind a proxy, else Host. */
  private effectiveHost(headers: IncomingHttpHeaders): { hostname: string; port: string } | null {
    const forwarded = this.config().behindProxy ? firstValue(headers['x-forwarded-host']) : undefined;
    const raw = forwarded ?? headers.host;
    return raw ? parseHostHeader(raw) : null;
  }
}

function sameOriginString(configured: string, origin: string): boolean {
  try {
    return new URL(configured.trim()).origin.toLowerCase() === origin.toLowerCase();
  } catch {
    return false;
  }
}

function forbiddenOrigin(shown: string, origin: string | null): AppError {
  const example = origin ?? 'https://example.com';
  return new AppError('forbidden', `拒绝来自其他站点 (${quote(shown)}) 的修改请求。若要允许该来源，请把它加入配置 allowedOrigins，例如 kikoplay config set allowedOrigins '["${example}"]'`, {
    code: 'ORIGIN_NOT_ALLOWED',
  });
}
