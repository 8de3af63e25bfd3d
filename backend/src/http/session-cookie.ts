/** The signed cookie that carries a session's key (set by the session middleware in app.ts, read by sign-out-elsewhere and the live feed). */
export const SESSION_COOKIE = 'crm.sid';
