/**
 * Where an instance's pipeline lives: `/api/{instance}/pipeline` (the /maven family is
 * `/api/maven/pipeline`). The server takes the instance from the session and answers 404
 * when the path names another one, so a screen never shows another instance's jobs.
 */
export function pipelineApiPath(instance: string, ...segments: string[]): string {
  return ['/api', encodeURIComponent(instance), 'pipeline', ...segments.map(encodeURIComponent)].join('/');
}

/** Every pipeline query of an instance starts with this key. */
export const pipelineQueryKey = (instance: string) => ['pipeline', instance] as const;
