import type { Features } from './instances.ts';

/** What the platform's routes answer with. Browser-safe. */

/** What the API returns for an instance. */
export interface CrmInstanceView {
  id: string;
  name: string;
  subdomain: string;
  displayName: string;
  description: string;
  features: Features;
  isActive: boolean;
  createdAt: string;
}

export interface SuperAdminView {
  id: string;
  username: string;
  displayName: string;
}

/** What anyone may know of an instance: enough for its login page. */
export interface PublicInstanceView {
  subdomain: string;
  name: string;
  displayName: string;
  isActive: boolean;
}

export interface AppInfo {
  version: string;
  providerName: string;
  /** Host (and port) the app is reached at, PUBLIC_HOST or the request's: the start of the shops' addresses the builder shows. */
  host: string;
}
