import pino from 'pino';

export type Logger = pino.Logger;

const SECRET_KEYS = [
  'password',
  'pin',
  'currentPin',
  'newPin',
  'adminPin',
  'passwordHash',
  'pinHash',
  'sessionSecret',
  'SESSION_SECRET',
  'SUPER_ADMIN_PASSWORD',
];

/** Secrets never reach a log line, whatever a caller passes: at the top and two levels down. */
const REDACT = [...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]), 'req.headers.cookie', 'res.headers["set-cookie"]'];

/** `destination`: where lines go (stdout when not given; tests capture them). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = { level, redact: { paths: REDACT, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
