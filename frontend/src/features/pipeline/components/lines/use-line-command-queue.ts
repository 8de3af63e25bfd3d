import { useRef, useState } from 'react';
import { errorMessage } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import type { LoadedJob } from '../../api/get-job';

/**
 * The lines' commands, one after another: each waits for the one before it and is sent with
 * the ETag that one answered, so quick edits never collide with each other. Says which lines
 * are being saved and what the last failure was.
 */
export function useLineCommandQueue(loaded: LoadedJob, onSaved: (saved: LoadedJob, sentWith: string) => void) {
  const [saving, setSaving] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  // The newest copy of the job: a command waits for the one before it and uses its ETag.
  const latest = useRef(loaded);
  if (loaded.job.revision > latest.current.job.revision) latest.current = loaded;
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  /**
   * Runs a command in turn. `settle` drops the line's draft in the same update that shows the
   * job the command answered: were it dropped a render later, the saved line and its draft would
   * both be on screen for a moment, and typing into that moment went into the draft and was lost.
   */
  const run = (
    keys: string[],
    what: string,
    command: (etag: string) => Promise<LoadedJob | null>,
    settle?: () => void,
  ): Promise<boolean> => {
    setSaving((current) => new Set([...current, ...keys]));
    const step = queue.current.then(async () => {
      try {
        const sentWith = latest.current.etag;
        const result = await command(sentWith);
        // Nothing left to do once the commands before it were done (a move with nowhere to go).
        if (!result) return true;
        latest.current = result;
        settle?.();
        onSaved(result, sentWith);
        setError(null);
        return true;
      } catch (failure) {
        reportFailure(`${what} failed`, failure);
        setError(errorMessage(failure, `Could not ${what.toLowerCase()}`));
        return false;
      } finally {
        setSaving((current) => new Set([...current].filter((key) => !keys.includes(key))));
      }
    });
    queue.current = step;
    return step;
  };

  return { run, saving, error, latest };
}
