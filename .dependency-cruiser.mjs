// The import rules of docs/ARCHITECTURE.md#import-rules, checked on resolved paths by dependency-cruiser
// (`npm run lint:imports`, part of `npm run lint`). Type-only imports count too.

/**
 * Zones: files under `target` may not import files under `from`, except those under `from`/`except`.
 * Paths are relative to the repository root.
 */
const zones = [
  // HTTP routes call services, never the database.
  { target: './server/http', from: './server/db', message: 'routes call services; SQL lives in repositories' },
  // Pure layers: no Node built-ins (checked by ESLint's no-restricted-imports), no server internals.
  { target: './server/domain', from: './server', except: ['./domain'], message: 'domain is pure: it imports only domain' },
  { target: './server/contract', from: './server', except: ['./domain', './contract'], message: 'contract imports only domain and contract' },
  // The web imports only the server's pure layers.
  { target: './web', from: './server', except: ['./domain', './contract'], message: 'the web may import only server/domain and server/contract' },
  { target: './web', from: './cli', message: 'the web may not import the CLI' },
  // The library emits events; it knows nothing of HTTP, sockets or the terminal.
  { target: './server/library', from: './server/http', message: 'the library emits events; it does not know HTTP' },
  { target: './server/library', from: './server/realtime', message: 'the library emits events; the hub subscribes' },
  { target: './server/library', from: './cli', message: 'the library does not know the terminal' },
  // Media and the database sit below the scanner: what they share with it lives in domain/ or contract/.
  { target: './server/media', from: './server/library', message: 'media sits below the library; shared rules live in server/domain' },
  { target: './server/db', from: './server/library', message: 'the database sits below the library; shared shapes live in server/domain' },
  // The TUI talks to services and events, never to the DB.
  { target: './cli/tui', from: './server/db', message: 'the TUI talks to services and events, never to the DB' },
  // Web: shared pieces sit below the screens.
  { target: './web/src/components', from: './web/src/features', message: 'shared components do not import features' },
  { target: './web/src/components', from: './web/src/app', message: 'shared components do not import the app shell' },
  ...['api', 'lib', 'i18n'].flatMap((base) =>
    ['features', 'components', 'app'].map((upper) => ({
      target: `./web/src/${base}`,
      from: `./web/src/${upper}`,
      message: `web/src/${base} is a base layer: it does not import ${upper}`,
    })),
  ),
];

/** './server/http' → the regular expression of that folder and everything under it. */
const under = (dir) => `^${dir.replace(/^\.\//, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`;

const zoneRules = zones.map(({ target, from, except = [], message }) => ({
  name: `zone: ${target} -/-> ${from}`,
  comment: message,
  severity: 'error',
  from: { path: under(target) },
  to: {
    path: under(from),
    ...(except.length ? { pathNot: except.map((e) => under(`${from}/${e.replace(/^\.\//, '')}`)) } : {}),
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...zoneRules,
    {
      // A feature's public surface is its top-level files; its subfolders are its own.
      name: 'web: feature internals',
      comment: 'a feature may import only the top-level files of another feature, not its subfolders',
      severity: 'error',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/[^/]+/[^/]+/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'web: feature internals (outside features)',
      comment: 'code outside web/src/features may import only the top-level files of a feature',
      severity: 'error',
      from: { path: '^web/src/', pathNot: '^web/src/features/' },
      to: { path: '^web/src/features/[^/]+/[^/]+/' },
    },
    {
      name: 'no-cycle',
      comment: 'modules may not import each other in a circle, directly or through others',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      // Without this, an import the resolver cannot follow would slip past every rule above.
      name: 'resolvable',
      comment: 'every import must resolve to a file or an installed package',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|coverage|test-results|bench-results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types', 'typings'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
