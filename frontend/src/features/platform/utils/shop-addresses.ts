/**
 * Where a shop's staff reach their CRM: the app's own routes, on the app's own origin (there
 * are no per-shop subdomains to serve). `/{subdomain}` is the short one, `/crm/{subdomain}` the
 * canonical sign-in page.
 */
export interface ShopAddresses {
  short: string;
  signIn: string;
}

export function shopAddresses(origin: string, subdomain: string): ShopAddresses {
  const base = origin.replace(/\/+$/, '');
  const slug = encodeURIComponent(subdomain);
  return { short: `${base}/${slug}`, signIn: `${base}/crm/${slug}` };
}

/**
 * The origin staff use: the configured public host (PUBLIC_HOST, else the one the request came
 * to) with the page's protocol; the page's own origin until the server has said.
 */
export function publicOrigin(location: Pick<Location, 'protocol' | 'origin'>, host: string | undefined): string {
  return host ? `${location.protocol}//${host}` : location.origin;
}
