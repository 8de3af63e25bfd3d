import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { TIME_RANGE } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { NotFoundError } from '../shared/errors.ts';
import { access, type Access, type ApiRouter, type RouteInfo } from './router.ts';
import { routeStatuses } from './statuses.ts';

type JsonSchema = Record<string, unknown>;

/**
 * The years a date or time the server takes is written with: 1901 to 9998. The formats
 * `date` and `date-time` allow years 0000 to 9999, but every time is stored and shown in
 * a shop's calendar, which hold 1900-01-01 to 9999-12-30 (TIME_RANGE). Whole years strictly
 * inside that range keep every instant they can name inside it, whatever the offset it is
 * written with (at most ±23:59), so nothing the document allows is refused for its year.
 */
export const YEAR_RANGE_PATTERN = '^(?:190[1-9]|19[1-9][0-9]|[2-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8])-';
const YEAR_RANGE_TEXT = `Years 1901 to 9998 (the server stores times from ${TIME_RANGE.minText} to ${TIME_RANGE.maxText}).`;

/** Every `date` and `date-time` in a schema states the years the server takes (see YEAR_RANGE_PATTERN). */
function yearRanges(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(yearRanges);
  if (schema === null || typeof schema !== 'object') return;
  const object = schema as JsonSchema;
  for (const inner of Object.values(object)) yearRanges(inner);
  if (object.format === 'date-time' || object.format === 'date') {
    // A pattern of its own (zod's, which allows any four-digit year) stays; the years are added beside it.
    if (object.pattern === undefined) object.pattern = YEAR_RANGE_PATTERN;
    else object.allOf = [...((object.allOf as JsonSchema[] | undefined) ?? []), { pattern: YEAR_RANGE_PATTERN }];
    object.description = typeof object.description === 'string' ? `${object.description} ${YEAR_RANGE_TEXT}` : YEAR_RANGE_TEXT;
  }
}

/** A zod schema as JSON Schema; what zod cannot express (transforms, refinements) is left open. */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete converted.$schema;
  yearRanges(converted);
  return converted;
}

/**
 * A request body's schema: every object with named properties takes no others (the server
 * refuses unknown fields with a 400 naming them, see body-fields.ts). Only schemas typed as
 * objects are closed: a typeless alternative beside an object's own properties (the "at least
 * one field filled" anyOf, each naming one field) only constrains that field, and closing it
 * would refuse every body with two fields.
 */
function closedObjects(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(closedObjects);
  if (schema === null || typeof schema !== 'object') return;
  const object = schema as JsonSchema;
  const typed = object.type === 'object' || (Array.isArray(object.type) && object.type.includes('object'));
  if (typed && object.properties && object.additionalProperties === undefined) object.additionalProperties = false;
  for (const inner of Object.values(object)) closedObjects(inner);
}

function requestBodySchema(schema: z.ZodType): JsonSchema {
  const converted = jsonSchemaOf(schema, 'input');
  closedObjects(converted);
  return converted;
}

const ACCESS_TEXT: Record<Access['kind'], string> = {
  public: 'Anyone (no session).',
  superadmin: "The provider's super admin session.",
  user: 'Any signed-in user of the instance.',
  permission: 'A signed-in user of the instance with the permission named.',
  admin: 'Role admin of the instance.',
};

function accessText(routeAccess: Access): string {
  if (routeAccess.kind === 'permission') return `A signed-in user of the instance with ${routeAccess.permission}.`;
  if (routeAccess.kind === 'admin' && routeAccess.allowSuperAdmin) return 'Role admin of the instance, or the super admin.';
  return ACCESS_TEXT[routeAccess.kind];
}

/** Every error answer is problem details (RFC 9457). */
const problem = {
  content: {
    'application/problem+json': {
      schema: {
        type: 'object',
        properties: {
          type: { type: 'string' },
          title: { type: 'string' },
          status: { type: 'integer' },
          detail: { type: 'string' },
          message: { type: 'string' },
        },
        required: ['title', 'status', 'message'],
      },
    },
  },
};

/** `/api/:instance/x/:id` → `/api/{instance}/x/{id}` and its parameter names. */
function openApiPath(koaPath: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = koaPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
}

/** A query schema's parameters; an intersection (`allOf`) of objects gives all of theirs. */
function queryParameters(schema: z.ZodType): JsonSchema[] {
  const json = jsonSchemaOf(schema, 'input');
  const parts = ((json.allOf as JsonSchema[] | undefined) ?? [json]).flatMap((part) => (part.allOf as JsonSchema[] | undefined) ?? [part]);
  return parts.flatMap((part) => {
    const properties = (part.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((part.required ?? []) as string[]);
    return Object.entries(properties).map(([name, property]) => ({ name, in: 'query', required: required.has(name), schema: property }));
  });
}

/** Writes of a signed-in caller take an idempotency key (see http/idempotency.ts). */
const IDEMPOTENCY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Runs the write once per key and caller: a retry with the same key answers as the first did (Idempotent-Replayed: true) and records nothing; the same key with another request is a 422.',
  schema: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
};

function operation(route: RouteInfo): JsonSchema {
  const { params } = openApiPath(route.path);
  const doc = route.doc;
  const pathParameterSchemas = doc?.params
    ? ((jsonSchemaOf(doc.params, 'input').properties ?? {}) as Record<string, JsonSchema>)
    : ({} as Record<string, JsonSchema>);
  const successContent = {
    [doc?.produces ?? 'application/json']: { schema: doc?.response ? jsonSchemaOf(doc.response, 'output') : {} },
  };
  const responses: Record<string, JsonSchema> = {};
  for (const [status, description] of routeStatuses(route)) {
    if (status === 204) responses[status] = { description };
    else if (status < 300) responses[status] = { description, content: successContent };
    else responses[status] = { description, content: problem.content };
  }
  return {
    summary: doc?.summary ?? `${route.method} ${route.path}`,
    description: `Who may call it: ${accessText(route.access)}`,
    tags: [doc?.tag ?? 'other'],
    ...(route.access.kind === 'public' ? { security: [] } : {}),
    parameters: [
      // An empty segment never matches a `:name` parameter (it is another path), so the document says at least one character.
      ...params.map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: pathParameterSchemas[name] ?? { type: 'string', minLength: 1 },
      })),
      ...(doc?.query ? queryParameters(doc.query) : []),
      ...(route.method !== 'GET' && route.access.kind !== 'public' ? [IDEMPOTENCY_PARAMETER] : []),
    ],
    ...(doc?.body ? { requestBody: { required: true, content: { 'application/json': { schema: requestBodySchema(doc.body) } } } } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of every route the router knows. */
export function buildOpenApiDocument(routes: readonly RouteInfo[], version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const { path: openPath } = openApiPath(route.path);
    (paths[openPath] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Shop CRM API',
      version,
      description:
        'JSON over /api. Every mutating call needs the header `X-CRM-Request: 1` (cross-site guard) and, unless public, a session cookie from a sign-in. Errors are problem details. ' +
        'Text anywhere in a request (path, query, headers, JSON strings and keys) must not contain a NUL character (U+0000) or an unpaired UTF-16 surrogate: such a request is a 400. ' +
        'Each operation lists every status it can answer.',
    },
    'x-text-rule': 'No NUL (U+0000) and no unpaired UTF-16 surrogate in any request text; refused with 400.',
    components: {
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'crm.sid' } },
    },
    security: [{ session: [] }],
    paths,
  };
}

/** The document's outline (its operations are described by the document itself). */
const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

const DOCS_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js'] as const;

/** The API docs page: Swagger UI over /api/openapi.json, its files loaded only on this page. */
const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Shop CRM API</title>
    <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="api-docs"></div>
    <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`;

const DOCS_INIT = `window.addEventListener('load', function () {
  window.SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#api-docs', deepLinking: true });
});
`;

/** GET /api/openapi.json, GET /api/docs (and its files): registered after every slice's routes. */
export function registerApiDocsRoutes(router: ApiRouter, _deps: AppDeps, version: string): void {
  const assetsDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  router.get(
    '/api/openapi.json',
    access.public,
    async (ctx) => {
      ctx.body = buildOpenApiDocument(router.routes, version);
    },
    { doc: { summary: 'This API, as an OpenAPI 3.1 document', tag: 'docs', response: openApiDocumentSchema } },
  );
  router.get(
    '/api/docs',
    access.public,
    async (ctx) => {
      ctx.type = 'html';
      ctx.body = DOCS_HTML;
    },
    { doc: { summary: 'Browsable API docs (Swagger UI)', tag: 'docs', produces: 'text/html' } },
  );
  router.get(
    '/api/docs/init.js',
    access.public,
    async (ctx) => {
      ctx.type = 'application/javascript';
      ctx.body = DOCS_INIT;
    },
    { doc: { summary: 'The docs page script', tag: 'docs', produces: 'application/javascript' } },
  );
  router.get(
    '/api/docs/assets/:file',
    access.public,
    async (ctx) => {
      const file = DOCS_ASSETS.find((name) => name === ctx.params.file);
      if (!file) throw new NotFoundError();
      ctx.type = path.extname(file);
      ctx.body = readFileSync(path.join(assetsDir, file));
    },
    { doc: { summary: "The docs page's Swagger UI files", tag: 'docs', produces: 'application/octet-stream' } },
  );
}
