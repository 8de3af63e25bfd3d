/**
 * Where an instance's service requests live: `/api/{instance}/service-requests`. The server
 * takes the instance from the session and answers 404 when the path names another one.
 */
export function serviceRequestsApiPath(instance: string, ...segments: string[]): string {
  return ['/api', encodeURIComponent(instance), 'service-requests', ...segments.map(encodeURIComponent)].join('/');
}

/** Every service-request query of an instance starts with this key. */
export const serviceRequestsQueryKey = (instance: string) => ['service-requests', instance] as const;
