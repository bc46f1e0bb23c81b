/**
 * The web app (Vite root `web/`) builds to dist/web, which `kikoplay serve` serves. `npm run dev:web`
 * proxies /api to a server on :8888. The build prints the gzip size of what the first page load needs
 * (the entry chunk, its static imports and CSS) and fails above the budget.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
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

/**
 * The main screens' code fetched together with the entry instead of after it has run: an inline script
 * adds modulepreload links for the JS chunks of the main layout (every path but /login and /admin) and the work
 * list's (/, /works, /search). Other paths load nothing extra; the entry itself is unchanged.
 */
function routePreload(): Plugin {
  const ROUTES: { module: RegExp; paths: string }[] = [
    { module: /app[\\/]layouts[\\/]MainLayout\.tsx$/, paths: '^/(?!login(/|$)|admin(/|$))' },
    { module: /features[\\/]works[\\/]WorksPage\.tsx$/, paths: '^/(works|search)?/?$' },
  ];
  return {
    name: 'kikoplay-route-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
        const entry = chunks.find((c) => c.isEntry);
        if (!entry) return;
        const initial = new Set<string>();
        const closure = (fileName: string, into: Set<string>, css: Set<string>) => {
          if (into.has(fileName)) return;
          into.add(fileName);
          const item = bundle[fileName];
          if (item?.type !== 'chunk') return;
          for (const file of item.viteMetadata?.importedCss ?? []) css.add(file);
          for (const dep of item.imports) closure(dep, into, css);
        };
        closure(entry.fileName, initial, new Set());
        const rules = ROUTES.flatMap(({ module, paths }) => {
          const chunk = chunks.find((c) => c.facadeModuleId && module.test(c.facadeModuleId));
          if (!chunk) return [];
          const js = new Set<string>();
          closure(chunk.fileName, js, new Set());
          return [{ paths, js: [...js].filter((f) => !initial.has(f)).map((f) => `/${f}`) }];
        });
        if (!rules.length) return;
        const code = `(function (p) {
  var rules = ${JSON.stringify(rules)};
  var seen = {};
  rules.forEach(function (r) {
    if (!new RegExp(r.paths).test(p)) return;
    r.js.forEach(function (f) {
      if (seen[f]) return;
      seen[f] = 1;
      var l = document.createElement('link');
      l.rel = 'modulepreload';
      l.crossOrigin = '';
      l.href = f;
      document.head.appendChild(l);
    });
  });
})(location.pathname);`;
        return [{ tag: 'script', children: code, injectTo: 'head' }];
      },
    },
  };
}

/**
 * Precompressed copies of the hashed assets (`.br`, `.gz`) next to them: the server sends these as they
 * are (koa-static) instead of compressing every script again for every new visitor on its one thread.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'kikoplay-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const dir = path.join(outDir, 'assets');
      for (const name of readdirSync(dir)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const file = path.join(dir, name);
        const source = readFileSync(file);
        if (source.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length } }));
      }
    },
  };
}

export default defineConfig({
  root: 'web',
  base: '/',
  publicDir: 'public',
  plugins: [react(), initialSizeReport(), routePreload(), precompress()],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // Fewer, larger files: left alone, the first /works load asks for ~80 tiny chunks, which queue
        // behind each other (six connections per host) and hold back the session and works requests.
        codeSplitting: {
          groups: [
            // the libraries of the first load: one file
            { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'], priority: 3 },
            // the drag-and-drop of the queue dialog stays with that dialog
            { name: 'dnd', test: /node_modules[\\/]@dnd-kit[\\/]/, priority: 2 },
            // the UI libraries the screens share: one file, cached once for all of them
            { name: 'ui', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8888', changeOrigin: false, ws: true },
    },
  },
});
