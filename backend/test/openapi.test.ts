import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isStorableAppointment } from '@crm/projections/pipeline';
import { YEAR_RANGE_PATTERN } from '../src/http/openapi.ts';
import { ApiClient, startTestServer, type TestServer } from './support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const openApiPath = (koaPath: string) => koaPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

test('GET /api/openapi.json is an OpenAPI 3.1 document with every route the router knows', async () => {
  const res = await new ApiClient(server.url).get('/api/openapi.json');
  expect(res.status).toBe(200);
  expect(res.body.openapi).toBe('3.1.0');
  const missing = server.runtime.router.routes
    .filter((route) => !res.body.paths[openApiPath(route.path)]?.[route.method.toLowerCase()])
    .map((route) => `${route.method} ${route.path}`);
  expect(missing).toEqual([]);
  // And nothing in it that the router does not serve.
  const known = new Set(server.runtime.router.routes.map((route) => `${route.method.toLowerCase()} ${openApiPath(route.path)}`));
  for (const [path, operations] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(operations)) expect(known.has(`${method} ${path}`), `${method} ${path}`).toBe(true);
  }
});

test('every route README names (`GET /api/…`, `POST/PUT /api/…`) is one the router serves', () => {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
  // A router path's `:param` segment matches any segment of README's (`{id}`, `maven`, `{job\|customer}`).
  const routes = server.runtime.router.routes.map((route) => ({ method: route.method, segments: route.path.split('/') }));
  const served = (method: string, readmePath: string) => {
    const segments = readmePath.split('/');
    return routes.some(
      (route) =>
        route.method === method &&
        route.segments.length === segments.length &&
        route.segments.every((segment, i) => segment.startsWith(':') || segment === segments[i]),
    );
  };
  const named = [...readme.matchAll(/`((?:GET|POST|PUT|PATCH|DELETE)(?:\/(?:GET|POST|PUT|PATCH|DELETE))*) (\/api\/[^`\s?]*)/g)];
  expect(named.length).toBeGreaterThan(50);
  const missing: string[] = [];
  for (const [, methods, readmePath] of named) {
    // `…/lines[/{lineId}]`: the route with or without the optional segment.
    const forms = [readmePath!.replace(/\[[^\]]*\]/g, ''), readmePath!.replace(/\[([^\]]*)\]/g, '$1')];
    for (const method of methods!.split('/')) if (!forms.some((form) => served(method, form))) missing.push(`${method} ${readmePath}`);
  }
  expect(missing, 'named in README but not served').toEqual([]);
});

test('the docs page loads Swagger UI and its files', async () => {
  const client = new ApiClient(server.url);
  const page = await client.get('/api/docs');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(page.text).toContain('/api/docs/assets/swagger-ui-bundle.js');
  const script = await client.get('/api/docs/assets/swagger-ui-bundle.js');
  expect(script.status).toBe(200);
  expect(script.text.length).toBeGreaterThan(100_000);
  expect((await client.get('/api/docs/assets/..%2Fpackage.json')).status).toBe(404);
  expect((await client.get('/api/docs/init.js')).text).toContain('/api/openapi.json');
});

test('every route the router knows carries its doc (summary and slice tag), and the document describes it with them', async () => {
  const res = await new ApiClient(server.url).get('/api/openapi.json');
  const TAGS = [
    'platform',
    'identity',
    'customers',
    'pipeline',
    'calendar',
    'audit',
    'live',
    'service-requests',
    'dashboard',
    'docs',
    'records',
    'insights',
    'messages',
    'vehicles',
    'repair-orders',
  ];
  const undocumented = server.runtime.router.routes
    .filter((route) => !route.doc?.summary || !TAGS.includes(route.doc.tag))
    .map((route) => `${route.method} ${route.path}`);
  expect(undocumented).toEqual([]);
  for (const route of server.runtime.router.routes) {
    const operation = res.body.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
    expect(operation, `${route.method} ${route.path}`).toBeDefined();
    expect(operation.summary).toBe(route.doc!.summary);
    expect(operation.tags).toEqual([route.doc!.tag]);
    // What it parses and answers with is in the document: a body, a query's parameters, a JSON answer's schema.
    if (route.doc!.body)
      expect(operation.requestBody?.content['application/json'].schema, `${route.method} ${route.path} body`).toBeTruthy();
    if (route.doc!.query)
      expect(
        operation.parameters.some((p: { in: string }) => p.in === 'query'),
        `${route.method} ${route.path} query`,
      ).toBe(true);
    if (route.doc!.response) {
      const success = operation.responses[String(route.doc!.status ?? (route.method === 'POST' ? 201 : 200))];
      expect(Object.keys(success.content['application/json'].schema), `${route.method} ${route.path} response`).not.toEqual([]);
    }
  }
});

test('a route that answers JSON names the schema it answers with', () => {
  const bare = server.runtime.router.routes
    .filter((route) => !route.doc?.response && !route.doc?.produces && route.doc?.status !== 204)
    .map((route) => `${route.method} ${route.path}`);
  expect(bare).toEqual([]);
});

test('every date and date-time in the document states the years the server takes, and those years are all storable', async () => {
  const res = await new ApiClient(server.url).get('/api/openapi.json');
  const unbounded: string[] = [];
  let seen = 0;
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${where}/${i}`));
    if (node === null || typeof node !== 'object') return;
    const schema = node as Record<string, unknown>;
    if (schema.format === 'date-time' || schema.format === 'date') {
      seen++;
      const patterns = [schema.pattern, ...((schema.allOf as Array<{ pattern?: string }> | undefined) ?? []).map((part) => part.pattern)];
      if (!patterns.includes(YEAR_RANGE_PATTERN)) unbounded.push(where);
    }
    for (const [key, value] of Object.entries(schema)) walk(value, `${where}/${key}`);
  };
  walk(res.body.paths, '#/paths');
  expect(seen).toBeGreaterThan(10);
  expect(unbounded).toEqual([]);

  const years = new RegExp(YEAR_RANGE_PATTERN, 'u');
  for (const refused of ['0000-01-01T00:00:00Z', '1900-06-01T00:00:00Z', '9999-12-31T23:59:00Z', '10000-01-01T00:00:00Z', '0000-01-01'])
    expect(years.test(refused), refused).toBe(false);
  // The extremes the pattern allows, at the farthest offsets, name instants the server stores (appointments included).
  for (const taken of ['1901-01-01T00:00:00+23:59', '9998-12-31T23:59:59-23:59']) {
    expect(years.test(taken), taken).toBe(true);
    expect(isStorableAppointment(Date.parse(taken)), taken).toBe(true);
  }
});
