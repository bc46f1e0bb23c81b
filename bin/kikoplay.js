#!/usr/bin/env node
import('../dist/cli/main.js').then(
  (cli) => cli.run(),
  (err) => {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('main.js')) {
      console.error('kikoplay is not built yet: run `npm run build` first.');
    } else {
      console.error(err);
    }
    process.exit(2);
  },
);
