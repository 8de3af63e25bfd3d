import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { REPO } from './support.ts';

/**
 * infra/ cannot be applied here (no Docker, no cluster). What can be checked: every file
 * parses, and what one manifest names exists in another (Services select Deployments'
 * pods, ports are declared, the autoscaler and the budgets point at Deployments, env comes
 * from Secrets and ConfigMaps that exist), every setting is one backend/src/config.ts reads,
 * and every command is an entry point the build makes.
 */

type Doc = Record<string, any>;

const K8S = path.join(REPO, 'infra', 'k8s');

/** The settings the server reads (keys of the zod schema in backend/src/config.ts). */
function configKeys(): Set<string> {
  const source = readFileSync(path.join(REPO, 'backend', 'src', 'config.ts'), 'utf8');
  const schema = source.slice(
    source.indexOf('const configSchema = z.object({'),
    source.indexOf('\n});', source.indexOf('const configSchema')),
  );
  return new Set([...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!));
}

/** Entry points `npm run build` bundles (scripts/build-server.mjs). */
function builtEntries(): Set<string> {
  const source = readFileSync(path.join(REPO, 'scripts', 'build-server.mjs'), 'utf8');
  const list = /const entries = \[([^\]]*)\]/.exec(source)?.[1] ?? '';
  return new Set([...list.matchAll(/'([^']+)'/g)].map((m) => m[1]!));
}

/** The entry point a `node … backend/dist/<entry>.js` command runs. */
function entryOf(command: string[]): string {
  const script = command.find((part) => /^backend\/dist\/[\w-]+\.js$/.test(part));
  expect(script, `a command that runs a built entry point: ${JSON.stringify(command)}`).toBeTruthy();
  return path.basename(script!, '.js');
}

const dockerCmd = JSON.parse(/^CMD\s+(.*)$/m.exec(readFileSync(path.join(REPO, 'Dockerfile'), 'utf8'))![1]!) as string[];
const runScripts = readFileSync(path.join(REPO, 'scripts', 'run-server-script.mjs'), 'utf8');
/** `npm run projector` runs this entry point (scripts/run-server-script.mjs). */
const projectorEntry = /projector: '([\w-]+)'/.exec(runScripts)?.[1];

function loadManifests(): Array<{ file: string; doc: Doc }> {
  const out: Array<{ file: string; doc: Doc }> = [];
  for (const file of readdirSync(K8S).filter((f) => /\.ya?ml$/.test(f))) {
    for (const document of parseAllDocuments(readFileSync(path.join(K8S, file), 'utf8'))) {
      expect(document.errors, `${file}: ${document.errors.join('; ')}`).toEqual([]);
      const doc = document.toJS() as Doc | null;
      if (doc) out.push({ file, doc });
    }
  }
  return out;
}

function matches(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

describe('Kubernetes manifests (infra/k8s)', () => {
  const manifests = loadManifests();
  const docs = manifests.map((m) => m.doc).filter((d) => d.kind !== 'Kustomization');
  const byKind = (kind: string) => docs.filter((d) => d.kind === kind);
  const named = (kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata?.name === name);
  const deployments = byKind('Deployment');
  const keys = configKeys();

  test('every document parses and names its kind and itself; the kustomization lists every file', () => {
    expect(docs.length).toBeGreaterThan(8);
    for (const doc of docs) {
      expect(doc.apiVersion, JSON.stringify(doc).slice(0, 80)).toBeTruthy();
      expect(doc.metadata?.name, `${doc.kind} without a name`).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    }
    const names = docs.map((d) => `${d.kind}/${d.metadata.name}`);
    expect(new Set(names).size, 'no kind/name twice').toBe(names.length);
    const kustomization = manifests.find((m) => m.doc.kind === 'Kustomization')!.doc;
    const files = readdirSync(K8S).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml');
    expect([...(kustomization.resources as string[])].sort()).toEqual(files.sort());
  });

  test('an API Deployment with readiness on /readyz and an autoscaler; a projector Deployment of two replicas with a budget', () => {
    const api = named('Deployment', 'crm-api')!;
    const projector = named('Deployment', 'crm-projector')!;
    expect(api && projector).toBeTruthy();
    const apiContainer = api.spec.template.spec.containers[0];
    expect(apiContainer.readinessProbe.httpGet.path).toBe('/readyz');
    expect(apiContainer.livenessProbe.httpGet.path).toBe('/healthz');
    const hpa = byKind('HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.name === 'crm-api');
    expect(hpa?.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', apiVersion: api.apiVersion });
    expect(hpa!.spec.minReplicas).toBeGreaterThanOrEqual(2);
    // The autoscaler's CPU target needs a CPU request to measure against.
    expect(apiContainer.resources?.requests?.cpu).toBeTruthy();

    expect(projector.spec.replicas).toBe(2);
    const budget = byKind('PodDisruptionBudget').find((p) => matches(p.spec.selector.matchLabels, projector.spec.template.metadata.labels));
    expect(budget?.spec.minAvailable).toBe(1);
    // The API processes leave the projection to the projector Deployment.
    expect(apiContainer.env).toContainEqual({ name: 'RUN_PROJECTOR', value: 'false' });
  });

  test('selectors, ports and probes refer to what exists', () => {
    for (const deployment of deployments) {
      const labels = deployment.spec.template.metadata.labels;
      expect(matches(deployment.spec.selector.matchLabels, labels), `${deployment.metadata.name}: selector matches its pods`).toBe(true);
      for (const container of deployment.spec.template.spec.containers) {
        const ports = (container.ports ?? []) as Array<{ name?: string; containerPort: number }>;
        for (const probe of [container.readinessProbe, container.livenessProbe].filter(Boolean)) {
          const port = probe.httpGet.port;
          expect(
            ports.some((p) => p.name === port || p.containerPort === port),
            `${deployment.metadata.name}: probe port ${port}`,
          ).toBe(true);
        }
      }
    }
    for (const budget of byKind('PodDisruptionBudget')) {
      expect(deployments.some((d) => matches(budget.spec.selector.matchLabels, d.spec.template.metadata.labels))).toBe(true);
    }
    for (const hpa of byKind('HorizontalPodAutoscaler'))
      expect(named(hpa.spec.scaleTargetRef.kind, hpa.spec.scaleTargetRef.name)).toBeTruthy();
    for (const service of byKind('Service').filter((s) => s.spec.type !== 'ExternalName')) {
      const pods = deployments.filter((d) => matches(service.spec.selector, d.spec.template.metadata.labels));
      expect(pods.length, `Service ${service.metadata.name} selects a Deployment's pods`).toBe(1);
      const containerPorts = pods[0]!.spec.template.spec.containers.flatMap((c: Doc) => c.ports ?? []) as Array<{
        name?: string;
        containerPort: number;
      }>;
      for (const port of service.spec.ports) {
        expect(containerPorts.some((p) => p.name === port.targetPort || p.containerPort === port.targetPort)).toBe(true);
      }
    }
    for (const ingress of byKind('Ingress')) {
      for (const rule of ingress.spec.rules) {
        for (const p of rule.http.paths) {
          const service = named('Service', p.backend.service.name);
          expect(service, `Ingress ${ingress.metadata.name} -> Service ${p.backend.service.name}`).toBeTruthy();
          expect(
            service!.spec.ports.some((sp: Doc) => sp.name === p.backend.service.port.name || sp.port === p.backend.service.port.number),
          ).toBe(true);
        }
      }
    }
  });

  test('every setting is one the server reads, from a Secret or ConfigMap that exists; the URLs name the store Services', () => {
    const data = (doc: Doc) => ({ ...doc.data, ...doc.stringData }) as Record<string, string>;
    for (const source of [...byKind('Secret'), ...byKind('ConfigMap')]) {
      for (const key of Object.keys(data(source))) expect(keys, `${source.kind} ${source.metadata.name}: ${key}`).toContain(key);
    }
    const provided = new Set<string>();
    for (const deployment of deployments) {
      for (const container of deployment.spec.template.spec.containers) {
        for (const env of container.env ?? []) {
          expect(keys, `${deployment.metadata.name}: ${env.name}`).toContain(env.name);
          if (env.valueFrom?.secretKeyRef) {
            const secret = named('Secret', env.valueFrom.secretKeyRef.name);
            expect(secret && env.valueFrom.secretKeyRef.key in data(secret)).toBe(true);
          }
        }
        for (const from of container.envFrom ?? []) {
          const ref = from.secretRef ?? from.configMapRef;
          const source = named(from.secretRef ? 'Secret' : 'ConfigMap', ref.name);
          expect(source, `${deployment.metadata.name}: envFrom ${ref.name}`).toBeTruthy();
          for (const key of Object.keys(data(source!))) provided.add(`${deployment.metadata.name}:${key}`);
        }
        const port = (container.ports ?? [])[0]?.containerPort;
        if (port !== undefined) {
          const portSetting =
            (container.env ?? []).find((e: Doc) => e.name === 'PORT')?.value ?? named('ConfigMap', 'crm-config')?.data?.PORT;
          expect(String(port), `${deployment.metadata.name}: listens on the container port`).toBe(String(portSetting ?? 3000));
        }
      }
    }
    // Both need the stores; the API also the session secret (shared by every replica).
    for (const key of [
      'crm-api:DATABASE_URL',
      'crm-api:EVENTSTORE_URL',
      'crm-api:SESSION_SECRET',
      'crm-projector:DATABASE_URL',
      'crm-projector:EVENTSTORE_URL',
    ]) {
      expect(provided).toContain(key);
    }
    const database = named('Secret', 'crm-database')!;
    for (const key of ['DATABASE_URL', 'EVENTSTORE_URL']) {
      const url = new URL(data(database)[key]!);
      const service = named('Service', url.hostname);
      expect(service, `${key} names the Service ${url.hostname}`).toBeTruthy();
      expect(service!.spec.ports.map((p: Doc) => String(p.port))).toContain(url.port);
    }
  });

  test('the commands are the image’s entry points: the API as the Dockerfile runs it, the projector as npm run projector does', () => {
    const entries = builtEntries();
    for (const deployment of deployments) {
      for (const container of deployment.spec.template.spec.containers) {
        expect(container.image).toMatch(/^shop-crm:/);
        expect(entries).toContain(entryOf(container.command));
      }
    }
    expect(named('Deployment', 'crm-api')!.spec.template.spec.containers[0].command).toEqual(dockerCmd);
    expect(entryOf(named('Deployment', 'crm-projector')!.spec.template.spec.containers[0].command)).toBe(projectorEntry);
  });
});

describe('compose file (infra/docker-compose.yml)', () => {
  const compose = parse(readFileSync(path.join(REPO, 'infra', 'docker-compose.yml'), 'utf8'), { merge: true }) as Doc;
  const services = compose.services as Record<string, Doc>;
  const keys = configKeys();
  const app = Object.entries(services).filter(([, s]) => String(s.image).startsWith('shop-crm:'));

  test('EventStoreDB, PostgreSQL, two API processes, two projectors and a TLS-terminating proxy', () => {
    expect(services.eventstore?.image).toMatch(/^eventstore\//);
    expect(services.postgres?.image).toMatch(/^postgres:/);
    const apis = app.filter(([, s]) => entryOf(s.command) === 'main');
    const projectors = app.filter(([, s]) => entryOf(s.command) === projectorEntry);
    expect(apis).toHaveLength(2);
    expect(projectors).toHaveLength(2);
    for (const [, api] of apis) expect(api.environment).toMatchObject({ RUN_PROJECTOR: 'false', TRUST_PROXY: 'true' });
    for (const [, s] of app) expect(s.build).toMatchObject({ context: '..', dockerfile: 'Dockerfile' });
    for (const [, s] of app) expect(existsSync(path.join(REPO, 'infra', s.build.context, s.build.dockerfile))).toBe(true);

    // The proxy: Caddy on 443 with the Caddyfile next to this file, balancing over both API services.
    expect(services.proxy?.image).toMatch(/^caddy:/);
    expect(services.proxy!.ports).toContain('443:443');
    const mount = (services.proxy!.volumes as string[]).find((v) => v.includes('/etc/caddy/Caddyfile'))!;
    const caddyfile = readFileSync(path.join(REPO, 'infra', mount.split(':')[0]!), 'utf8');
    const upstreams = /reverse_proxy\s+([^{\n]+)/.exec(caddyfile)![1]!.trim().split(/\s+/);
    expect(upstreams.sort()).toEqual(apis.map(([name]) => `${name}:3000`).sort());
    expect(caddyfile).toMatch(/health_uri \/readyz/);
    expect(caddyfile).toMatch(/\btls\b/);
  });

  test('settings, dependencies and store URLs refer to what exists', () => {
    for (const [name, service] of app) {
      for (const key of Object.keys(service.environment)) expect(keys, `${name}: ${key}`).toContain(key);
      expect(String(service.environment.PORT ?? 3000)).toBe('3000');
      for (const dependency of Object.keys(service.depends_on))
        expect(services[dependency], `${name} depends on ${dependency}`).toBeTruthy();
      expect(new URL(service.environment.DATABASE_URL).hostname).toBe('postgres');
      expect(new URL(service.environment.EVENTSTORE_URL).hostname).toBe('eventstore');
      // One session secret for all, from the environment of `docker compose up`.
      expect(service.environment.SESSION_SECRET).toMatch(/^\$\{SESSION_SECRET:\?/);
    }
    for (const dependency of services.proxy!.depends_on as string[]) expect(services[dependency]).toBeTruthy();
    const volumes = Object.keys(compose.volumes ?? {});
    for (const [name, service] of Object.entries(services)) {
      for (const volume of (service.volumes ?? []) as string[]) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('.')) expect(existsSync(path.join(REPO, 'infra', source)), `${name}: ${source}`).toBe(true);
        else expect(volumes, `${name}: volume ${source}`).toContain(source);
      }
    }
  });
});
