// Runs a built backend entry point, building the server first when it is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const scripts = {
  server: 'main',
  projector: 'projector-main',
  rebuild: 'rebuild-main',
  bench: 'bench',
  seed: 'seed-main',
  export: 'export-main',
  import: 'import-main',
  'vehicles-migrate': 'migrate-vehicles-main',
};
const name = scripts[process.argv[2] ?? 'server'];
if (!name) {
  console.error(`Unknown script "${process.argv[2]}"; one of: ${Object.keys(scripts).join(', ')}`);
  process.exit(2);
}
const entry = `backend/dist/${name}.js`;
if (!existsSync(entry)) {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const child = spawnSync(process.execPath, ['--enable-source-maps', entry, ...process.argv.slice(3)], { stdio: 'inherit' });
process.exit(child.status ?? 1);
