/**
 * Where an instance's resources live and the query keys their reads start with. Several
 * features read and refresh the same resources (the calendar saves pipeline jobs, deleting a
 * customer removes its jobs): the paths and keys have this one home, so a feature never spells
 * another's key as a literal. The server takes the instance from the session and answers 404
 * when the path names another one.
 */
function instancePath(instance: string, resource: string, segments: string[]): string {
  return ['/api', encodeURIComponent(instance), resource, ...segments.map(encodeURIComponent)].join('/');
}

/** `/api/{instance}/pipeline/...` (the /maven family is `/api/maven/pipeline`). */
export const pipelineApiPath = (instance: string, ...segments: string[]): string => instancePath(instance, 'pipeline', segments);

/** `/api/{instance}/customers/...`. */
export const customersApiPath = (instance: string, ...segments: string[]): string => instancePath(instance, 'customers', segments);

/** Every pipeline query of an instance starts with this key. */
export const pipelineQueryKey = (instance: string) => ['pipeline', instance] as const;

/** Every customer query of an instance starts with this key. */
export const customersQueryKey = (instance: string) => ['customers', instance] as const;

/** Every vehicle query of an instance starts with this key (a customer merge moves vehicles). */
export const vehiclesQueryKey = (instance: string) => ['vehicles', instance] as const;

/** Every calendar query of an instance starts with this key (live updates and saves invalidate it). */
export const calendarQueryKey = (instance: string) => ['calendar', instance] as const;

/** Every user query of an instance starts with this key (user changes refresh it). */
export const usersQueryKey = (instance: string) => ['users', instance] as const;
