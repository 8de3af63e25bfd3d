import {
  changeOwnPinInput,
  changePermissionsInput,
  changeRoleInput,
  createUserInput,
  currentUserViewSchema,
  resetPinInput,
  setLockInput,
  signInInput,
  userChoicesSchema,
  userListSchema,
  userViewSchema,
} from '@crm/projections/contract';
import type { RouteDoc } from '../http/router.ts';

/** Where the path names no instance, the body must. */
export const signInNamingInstanceInput = signInInput.extend({ instance: signInInput.shape.instance.unwrap() });

const SIGN_IN_ANSWERS = {
  401: 'Wrong username or PIN (or no such user or instance)',
  403: 'The instance is closed',
  423: 'The account is locked, or throttled after failed PINs (Retry-After)',
  429: 'Too many sign-ins from this address: wait (Retry-After)',
};

/** What the OpenAPI document says of each identity route. */
export const IDENTITY_DOCS = {
  signIn: {
    summary: 'Staff sign-in with username and 4-digit PIN (starts a session; 423 while locked or throttled)',
    tag: 'identity',
    body: signInInput,
    response: currentUserViewSchema,
    status: 200,
    answers: SIGN_IN_ANSWERS,
  },
  signInNamingInstance: {
    summary: 'Staff sign-in with the instance, username and 4-digit PIN (starts a session; 423 while locked or throttled)',
    tag: 'identity',
    body: signInNamingInstanceInput,
    response: currentUserViewSchema,
    status: 200,
    answers: SIGN_IN_ANSWERS,
  },
  signOut: { summary: 'Sign-out (ends the session)', tag: 'identity', status: 204 },
  current: { summary: 'The signed-in user, their permissions and instance', tag: 'identity', response: currentUserViewSchema },
  changeOwnPin: {
    summary: 'Change your own PIN (the current one is asked for)',
    tag: 'identity',
    body: changeOwnPinInput,
    status: 204,
    answers: { 429: 'Too many PIN changes for this account: wait (Retry-After)' },
  },
  list: { summary: "The instance's users, in the order they were created", tag: 'identity', response: userListSchema },
  create: { summary: 'Add a user to the instance', tag: 'identity', body: createUserInput, response: userViewSchema, status: 201 },
  show: { summary: 'One user (ETag: its revision)', tag: 'identity', response: userViewSchema },
  remove: { summary: 'Delete a user (If-Match: the revision the admin saw)', tag: 'identity', status: 204 },
  lock: { summary: 'Lock or unlock a user (If-Match)', tag: 'identity', body: setLockInput, response: userViewSchema },
  clearSignInLock: {
    summary: 'End a sign-in lockout after failed PINs before it runs out (If-Match)',
    tag: 'identity',
    response: userViewSchema,
  },
  role: {
    summary: "Change a user's role; the permissions reset to the role's (If-Match)",
    tag: 'identity',
    body: changeRoleInput,
    response: userViewSchema,
  },
  resetPin: { summary: "Reset a user's PIN (If-Match)", tag: 'identity', body: resetPinInput, status: 204 },
  permissions: {
    summary: "Change a user's permissions (If-Match)",
    tag: 'identity',
    body: changePermissionsInput,
    response: userViewSchema,
  },
  choices: { summary: "The CSR and Tech choices: the instance's users who can work now", tag: 'identity', response: userChoicesSchema },
  instanceUsers: { summary: "An instance's users, for the super admin", tag: 'identity', response: userListSchema },
  instanceAddUser: {
    summary: 'Add a user (its first admin) to an instance, as the super admin',
    tag: 'identity',
    body: createUserInput,
    response: userViewSchema,
    status: 201,
  },
  instanceResetPin: {
    summary: "Reset an instance user's PIN, as the super admin (If-Match)",
    tag: 'identity',
    body: resetPinInput,
    status: 204,
  },
} satisfies Record<string, RouteDoc>;
