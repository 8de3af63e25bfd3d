/**
 * Where an instance's customers live: `/api/{instance}/customers` (the /maven family is
 * `/api/maven/customers`, the same shape). The server takes the instance from the session
 * and answers 404 when the path names another one, so a screen never shows another
 * instance's customers under its own address.
 */
export function customersApiPath(instance: string, ...segments: string[]): string {
  return ['/api', encodeURIComponent(instance), 'customers', ...segments.map(encodeURIComponent)].join('/');
}

/** Every customer query of an instance starts with this key. */
export const customersQueryKey = (instance: string) => ['customers', instance] as const;
