import pino from 'pino';

export type Logger = pino.Logger;

/** Secrets never reach a log line, whatever a caller passes. */
const REDACT = [
  'password',
  'pin',
  'currentPin',
  'newPin',
  'adminPin',
  'passwordHash',
  'pinHash',
  '*.password',
  '*.pin',
  '*.currentPin',
  '*.newPin',
  '*.adminPin',
  '*.passwordHash',
  '*.pinHash',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } });
}
