/// <reference types="vite/client" />

/** Version of the root package.json, injected by vite.config.ts. */
declare const __APP_VERSION__: string;
