/**
 * The nonce of this page load's Content-Security-Policy: the server writes it on
 * `<meta name="csp-nonce">` of index.html (server/http/spa.ts) and allows `<style>` elements that carry
 * it. Libraries that add such elements get it here: Mantine (its CSS variables, responsive style props)
 * through `getStyleNonce`, and the scroll lock of Mantine's modals and drawers (react-remove-scroll,
 * through get-nonce) from the global `__webpack_nonce__`, the one place that library looks for it. The
 * browser empties the attribute once the page has a policy; the `nonce` property keeps the value. Empty
 * under the dev server, which sends no policy.
 */
const meta = typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]');
const nonce = meta?.nonce || meta?.getAttribute('nonce') || '';

if (nonce) (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = nonce;

export const styleNonce = (): string => nonce;
