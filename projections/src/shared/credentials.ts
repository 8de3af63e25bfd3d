import { z } from 'zod';

/** What a username and a PIN must look like (an instance's users, its first admin included). Browser-safe: zod only. */

export const USERNAME_MIN = 3;
export const usernameSchema = z
  .string({ error: 'Username is required' })
  .trim()
  .min(USERNAME_MIN, 'Username must be at least 3 characters')
  .max(64, 'Username must be at most 64 characters')
  // 3 to 64 characters once the spaces around it are trimmed.
  .meta({ pattern: '^\\s*\\S.{1,62}\\S\\s*$' });

export const pinSchema = z
  .string({ error: 'PIN is required' })
  .length(4, 'PIN must be exactly 4 digits')
  .regex(/^\d+$/, 'PIN must contain only digits');
