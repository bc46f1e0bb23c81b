/// <reference types="vite/client" />

/** The web app's version (package.json), injected by vite.config.ts. */
declare const __APP_VERSION__: string;
