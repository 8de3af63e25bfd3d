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
  /**
   * A file the projector and reactors append a JSON line to per batch transaction (its events,
   * when they reached it, when it started and committed, the thread's GC pauses meanwhile):
   * for finding slow batches under load. Off unless set.
   */
  PROJECTOR_TRACE: z.string().min(1).optional(),
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
  // ---- customer messages ----
  /** The SMTP server e-mail goes through (`smtp://user:pass@host:587`, `smtps://…:465`); without it e-mail is recorded as not sent. */
  SMTP_URL: z
    .string()
    .refine((v) => /^smtps?:\/\/[^/]+/.test(v) && URL.canParse(v), 'must be a URL like smtp://user:pass@host:587 or smtps://host:465')
    .optional(),
  /** The sender of a shop that has not set its own from address. */
  SMTP_FROM: z
    .string()
    .trim()
    .regex(/^[^\s@<>]+@[^\s@<>]+$/, 'must be an e-mail address')
    .default('no-reply@localhost'),
  /** Twilio's account SID, auth token and sending number: all three, or none (texts are then recorded as not sent). */
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio account SID (AC followed by 32 hex digits)')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  TWILIO_FROM_NUMBER: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 form, e.g. +15550102000')
    .optional(),
  /** Twilio's API base (tests point it at a local server). */
  TWILIO_API_URL: z.string().url('must be a URL').default('https://api.twilio.com'),
  /** The address customers reach this server at, for the links in messages (unsubscribe, estimate approval) and Twilio's signature check. */
  PUBLIC_URL: z
    .string()
    .url('must be a URL like https://crm.example.com')
    .refine((v) => /^https?:\/\//.test(v), 'must start with http:// or https://')
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  /** The pause before a failed message's first automatic retry; each further one doubles it. */
  MESSAGE_RETRY_BASE_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(10)
    .max(86_400_000)
    .default(60_000),
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
  const twilio = [parsed.data.TWILIO_ACCOUNT_SID, parsed.data.TWILIO_AUTH_TOKEN, parsed.data.TWILIO_FROM_NUMBER];
  if (twilio.some((v) => v !== undefined) && !twilio.every((v) => v !== undefined)) {
    throw new ConfigError(
      'Invalid configuration:\n  TWILIO_ACCOUNT_SID: set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM_NUMBER together',
    );
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
