// ESLint flat config: typescript-eslint + the import boundaries of docs/ARCHITECTURE.md#import-rules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';

const zones = [
  // HTTP routes call services, never the database.
  { target: './server/http', from: './server/db', message: 'routes call services; SQL lives in repositories' },
  // Pure layers: no Node built-ins (checked by no-restricted-imports below), no server internals.
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
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'bench-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-control-regex': 'off',
      'prefer-const': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['server/domain/**', 'server/contract/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'domain and contract are pure: no Node built-ins' }] }],
    },
  },
  {
    files: ['web/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['test/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
