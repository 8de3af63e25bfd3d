import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface FrontendSizes {
  /** gzip bytes of the JavaScript index.html loads before anything renders (entry + modulepreloads). */
  initialJsGzip: number;
  initialFiles: string[];
  /** gzip bytes of the initial CSS (for information). */
  initialCssGzip: number;
  largestLazy: { file: string; gzip: number } | null;
  lazyChunks: number;
}

const gzipSize = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

/** What a first visit downloads (index.html's scripts and preloads) and the largest chunk loaded later. */
export function measureFrontend(distDir: string): FrontendSizes {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const referenced = (pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1]!.replace(/^\//, ''));
  const scripts = referenced(/<script[^>]*type="module"[^>]*src="([^"]+)"/g);
  const preloads = referenced(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g);
  const styles = referenced(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);
  const initialFiles = [...new Set([...scripts, ...preloads])];
  const sum = (files: string[]) => files.reduce((total, file) => total + gzipSize(path.join(distDir, file)), 0);

  const assets = path.join(distDir, 'assets');
  const lazy = (existsSync(assets) ? readdirSync(assets) : [])
    .filter((name) => name.endsWith('.js'))
    .map((name) => `assets/${name}`)
    .filter((file) => !initialFiles.includes(file))
    .map((file) => ({ file, gzip: gzipSize(path.join(distDir, file)) }))
    .sort((a, b) => b.gzip - a.gzip);
  return {
    initialJsGzip: sum(initialFiles),
    initialFiles,
    initialCssGzip: sum(styles),
    largestLazy: lazy[0] ?? null,
    lazyChunks: lazy.length,
  };
}
