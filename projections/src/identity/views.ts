import type { Features } from '../platform/instances.ts';
import type { Permissions, Role } from './permissions.ts';

/** What the identity slice's routes answer with. Browser-safe. */

/** A user as the admin screens list them. Never carries a PIN or its hash. */
export interface UserView {
  id: string;
  username: string;
  displayName: string;
  role: Role;
  isLocked: boolean;
  isActive: boolean;
  createdAt: string;
  lastLoginAt: string | null;
  permissions: Permissions;
  /**
   * The revision of the account record (its stream revision at the last change an admin
   * could see, USER_RECORD_EVENT_TYPES; sign-ins and PINs do not count), also its ETag
   * (`"3"`): send it back as If-Match to change only this version. Absent when not known
   * yet (a read model projected before revisions were kept, until the user's next change
   * or a rebuild): then there is no check.
   */
  revision?: number;
  /**
   * Until when sign-in is refused after too many failed attempts (ISO); null when it never
   * was. Once that time has passed the user may sign in again: compare with the clock.
   */
  signInLockedUntil: string | null;
}

/** The signed-in instance user (GET /api/user/current and the sign-in answer). */
export interface CurrentUserView {
  id: string;
  username: string;
  displayName: string;
  role: Role;
  permissions: Permissions;
  instance: {
    id: string;
    name: string;
    subdomain: string;
    displayName: string;
    features: Features;
  };
}

/** A choice in the entry dialog's CSR and Tech selects: an active user of the instance. */
export interface UserChoice {
  id: string;
  username: string;
  /** May be ''; show the username then. */
  displayName: string;
}
