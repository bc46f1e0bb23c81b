/**
 * Secrets out of logged URLs. The query is read the way the server reads it (URLSearchParams: names
 * and values percent-decoded, `+` a space), so every spelling that authenticates — `?token=`,
 * `?tok%65n=`, `?auth_token=` (the websocket), a repeated name — is found by its decoded name; the
 * value is replaced whatever it is, the rest of the URL is kept as sent.
 */

/** Decoded query names whose values are never logged (any letter case). */
const SECRET_NAME = /token|secret|passw(or)?d|^(api_?)?key$|^sig(nature)?$/i;

/** The name of one `name=value` piece as URLSearchParams decodes it. */
function decodedName(piece: string): string {
  const eq = piece.indexOf('=');
  const raw = (eq === -1 ? piece : piece.slice(0, eq)).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    // a malformed escape: URLSearchParams keeps such bytes as they are and decodes the valid ones
    return raw.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/** The Subsonic API's credentials (`/rest`): the password `p`, the token `t` and its salt `s`. */
const SUBSONIC_SECRET_NAME = /^[pts]$/;

export function isSecretQueryName(name: string, subsonic = false): boolean {
  return SECRET_NAME.test(name.trim()) || (subsonic && SUBSONIC_SECRET_NAME.test(name.trim()));
}

/** The URL with the value of every secret query parameter replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const query = url.slice(q + 1);
  const subsonic = /^\/rest(\/|$)/.test(url.slice(0, q));
  const redacted = query
    .split('&')
    .map((piece) => {
      if (!piece || !isSecretQueryName(decodedName(piece), subsonic)) return piece;
      const eq = piece.indexOf('=');
      return `${eq === -1 ? piece : piece.slice(0, eq)}=[redacted]`;
    })
    .join('&');
  return `${url.slice(0, q + 1)}${redacted}`;
}
