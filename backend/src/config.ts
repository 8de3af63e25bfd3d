import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const postgresUrl = z
  .string()
  .url('must be a URL like postgres://user:pass@host:5432/db')
  .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must start with postgres:// or postgresql://');

const configSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: postgresUrl.optional(),
  EVENTSTORE_URL: z
    .string()
    .refine((v) => /^(esdb|esdb\+discover|kurrentdb|kurrent):\/\//.test(v), 'must start with esdb:// (or esdb+discover://)')
    .optional(),
  /**
   * With EVENTSTORE_URL: keep to the streams whose names start with this, so several
   * deployments (or test servers) can share one EventStoreDB without seeing each other's events.
   */
  EVENTSTORE_STREAM_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9][\w.-]*$/, 'must be letters, digits, ".", "_" or "-"')
    .optional(),
  SUPER_ADMIN_USERNAME: z.string().trim().min(3, 'must be at least 3 characters').default('superadmin'),
  SUPER_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PROVIDER_NAME: z.string().trim().min(1).default('Maven'),
  /** Host shown after instance subdomains; defaults to the request's host. */
  PUBLIC_HOST: z.string().trim().min(1).optional(),
  /** Run the projector inside the server process; turn off when `npm run projector` runs it. */
  RUN_PROJECTOR: booleanFlag.default(true),
  /** Sign-in attempts allowed per client IP and minute, on each sign-in endpoint family. */
  SIGN_IN_RATE_LIMIT: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1).default(20),
  /** Trust X-Forwarded-* from a reverse proxy (client IP, HTTPS for Secure cookies). */
  TRUST_PROXY: booleanFlag.default(false),
  /**
   * Bearer token that `/metrics` on the API port asks for (`Authorization: Bearer …`); without
   * it (and without METRICS_PORT) the API port has no `/metrics` at all: per-route counts are
   * nobody else's business.
   */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** A separate port that serves only `/metrics` (no token asked), e.g. reachable only inside the cluster. */
  METRICS_PORT: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0).max(65535).optional(),
  /** Interface the metrics port listens on (loopback unless said). */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});

export type Config = z.infer<typeof configSchema> & { sessionSecret: string; dataDir: string };

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads the environment once; a bad value stops start-up with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  return { ...parsed.data, dataDir, sessionSecret: parsed.data.SESSION_SECRET ?? loadOrCreateSecret(dataDir) };
}

/** Keeps the generated session secret in DATA_DIR so sessions survive a restart. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
