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
// The others take their settings from the environment only: a flag given to one of them
// (`npm run projections:rebuild -- --dry-run`) would otherwise be ignored while it runs in full.
const takesArguments = new Set(['export', 'import', 'bench']);
if (process.argv.length > 3 && !takesArguments.has(process.argv[2])) {
  console.error(
    `npm run ${{ rebuild: 'projections:rebuild', 'vehicles-migrate': 'vehicles:migrate' }[process.argv[2]] ?? process.argv[2]} takes no arguments (got ${process.argv.slice(3).join(' ')}); its settings come from the environment (README, "Configuration").`,
  );
  process.exit(2);
}
const entry = `backend/dist/${name}.js`;
if (!existsSync(entry)) {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const child = spawnSync(process.execPath, ['--enable-source-maps', entry, ...process.argv.slice(3)], { stdio: 'inherit' });
process.exit(child.status ?? 1);
