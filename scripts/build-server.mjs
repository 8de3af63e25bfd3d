// Bundles the backend entry points (and the workspace code they import) into
// backend/dist; npm packages stay external and load from node_modules.
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';

const entries = [
  'main',
  'projector-main',
  'rebuild-main',
  'bench',
  'bench-screens',
  'seed-main',
  'export-main',
  'import-main',
  'migrate-vehicles-main',
];

// The benchmark's other processes (npm run bench): load generator, baseline server, append contestant.
const benchEntries = {
  'bench-load': 'bench/load-generator',
  'bench-baseline': 'bench/baseline-server',
  'bench-append': 'bench/append-worker',
};

export const serverBuildOptions = {
  entryPoints: {
    ...Object.fromEntries(entries.map((name) => [name, `backend/src/${name}.ts`])),
    ...Object.fromEntries(Object.entries(benchEntries).map(([name, file]) => [name, `backend/src/${file}.ts`])),
  },
  outdir: 'backend/dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@crm/') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
};

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await build(serverBuildOptions);
  console.log('backend built into backend/dist');
}
