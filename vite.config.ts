/**
 * The web app (Vite root `web/`) builds to dist/web, which `kikoplay serve` serves. `npm run dev:web`
 * proxies /api to a server on :8888. The build prints the gzip size of what the first page load needs
 * (the entry chunk, its static imports and CSS) and fails above the budget.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/** Initial JS + CSS budget, gzip. */
const INITIAL_BUDGET_KB = 250;

function initialSizeReport(): Plugin {
  return {
    name: 'kikoplay-initial-size',
    apply: 'build',
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((item) => item.type === 'chunk' && item.isEntry);
      if (!entry || entry.type !== 'chunk') return;
      const seen = new Set<string>();
      const css = new Set<string>();
      const visit = (fileName: string) => {
        if (seen.has(fileName)) return;
        seen.add(fileName);
        const item = bundle[fileName];
        if (item?.type !== 'chunk') return;
        for (const file of item.viteMetadata?.importedCss ?? []) css.add(file);
        for (const dep of item.imports) visit(dep);
      };
      visit(entry.fileName);
      const gz = (fileName: string) => {
        const item = bundle[fileName];
        const source = item.type === 'chunk' ? item.code : item.source;
        return gzipSync(typeof source === 'string' ? Buffer.from(source) : Buffer.from(source)).length;
      };
      const js = [...seen].reduce((sum, f) => sum + gz(f), 0);
      const styles = [...css].reduce((sum, f) => sum + gz(f), 0);
      const lazy = Object.values(bundle).filter((item) => item.type === 'chunk' && !seen.has(item.fileName)).length;
      const kb = (n: number) => (n / 1024).toFixed(1);
      console.log(`web: initial load ${kb(js + styles)} KB gzip (JS ${kb(js)} KB in ${seen.size} chunk(s), CSS ${kb(styles)} KB); ${lazy} lazy chunk(s)`);
      if ((js + styles) / 1024 > INITIAL_BUDGET_KB) this.error(`initial load is over the ${INITIAL_BUDGET_KB} KB gzip budget`);
    },
  };
}

export default defineConfig({
  root: 'web',
  base: '/',
  publicDir: 'public',
  plugins: [react(), initialSizeReport()],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8888', changeOrigin: false, ws: true },
    },
  },
});
