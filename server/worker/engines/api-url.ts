/**
 * `<base>/v1/<endpoint>` for an OpenAI-compatible service. The base may be given with or without the
 * trailing `/v1` (`http://127.0.0.1:8080`, `https://api.openai.com/v1`).
 */
export function apiUrl(base: string, endpoint: string): string {
  const trimmed = base.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${trimmed}/v1/${endpoint}`;
}
