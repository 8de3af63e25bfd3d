import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { measureFrontend } from './frontend-size.ts';
import { log, type PhaseContext } from './phase.ts';
import { format } from './report.ts';

/** The frontend bundle: initial JS and CSS (gzip) and the largest lazy chunk, building it first if needed. */
export function frontendPhase(ctx: PhaseContext, repoRoot: string): void {
  const dist = path.join(repoRoot, 'frontend/dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    log('Building the frontend (frontend/dist is missing)...');
    const built = spawnSync('npm', ['run', 'build', '-w', 'frontend'], { cwd: repoRoot, stdio: 'inherit' });
    if (built.status !== 0) {
      ctx.figures.push({ section: 'frontend', name: 'initial JS (gzip)', value: null, unit: 'KB', note: 'not measured: the build failed' });
      return;
    }
  }
  const sizes = measureFrontend(dist);
  ctx.figures.push({
    section: 'frontend',
    name: `initial JS, ${sizes.initialFiles.length} files (gzip)`,
    value: sizes.initialJsGzip / 1024,
    unit: 'KB',
    target: { atMost: 250 },
    note: `initial CSS ${format(sizes.initialCssGzip / 1024)} KB gzip; ${sizes.lazyChunks} lazy chunks`,
  });
  ctx.figures.push({
    section: 'frontend',
    name: `largest lazy chunk${sizes.largestLazy ? ` (${path.basename(sizes.largestLazy.file)})` : ''} (gzip)`,
    value: sizes.largestLazy ? sizes.largestLazy.gzip / 1024 : null,
    unit: 'KB',
  });
  ctx.details.frontend = sizes;
}
