/** Where /login sends the user after logging in: the `redirect` query, if it is a path of this app. */
export const LOGIN_PATH = '/login';

export function loginPathFor(from: string): string {
  return from && from !== '/' && !from.startsWith(LOGIN_PATH) ? `${LOGIN_PATH}?redirect=${encodeURIComponent(from)}` : LOGIN_PATH;
}

export function safeRedirect(target: string | null): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/';
  if (target === LOGIN_PATH || target.startsWith(`${LOGIN_PATH}?`) || target.startsWith(`${LOGIN_PATH}/`)) return '/';
  return target;
}
