/**
 * The nonce of this page load's Content-Security-Policy: the server writes it on
 * `<meta name="csp-nonce">` of index.html (server/http/spa.ts) and allows `<style>` elements that carry
 * it. Mantine adds such elements (its CSS variables, responsive style props), so it gets the nonce
 * through `getStyleNonce`. The browser empties the attribute once the page has a policy; the `nonce`
 * property keeps the value. Empty under the dev server, which sends no policy.
 */
const meta = typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]');
const nonce = meta?.nonce || meta?.getAttribute('nonce') || '';

export const styleNonce = (): string => nonce;
