import type { SuperAdminView } from '@crm/projections/platform';
import { atom } from 'jotai';

/**
 * The super admin session as the UI knows it: unknown until checked,
 * then signed in (set by the check or by login) or signed out (cleared by logout whatever
 * the call's outcome).
 */
export type SuperAdminSession = { status: 'unknown' } | { status: 'signed-in'; superAdmin: SuperAdminView } | { status: 'signed-out' };

export const superAdminSessionState = atom<SuperAdminSession>({ status: 'unknown' });
