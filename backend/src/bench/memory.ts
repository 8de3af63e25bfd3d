import { nodeChildPids, rssBytes } from './processes.ts';
import { format, type Figure } from './report.ts';

const MB = 1024 * 1024;

/**
 * Samples, every 500 ms, the resident memory (VmRSS in /proc, as `ps` shows it) of the API
 * process (RUN_PROJECTOR=true runs the projector, reactors and message sender in a worker
 * thread of it, so its RSS holds them) and of any Node process it started (none today; a
 * server that forked its workers again would be counted whole): each one's peak and the
 * peak of their sum. That sum is the server: what the container image runs (`node
 * backend/dist/main.js`). Not counted: PostgreSQL, and the `npm` and `scripts/start.mjs`
 * processes `npm start` keeps waiting in front of the server (each a Node process of its
 * own, 40 MB or more).
 */
export function sampleServerMemory(apiPid: number) {
  let peakRss = 0;
  let peakChildRss = 0;
  let peakTotalRss = 0;
  // The peak of the sum within each phase, in the order the phases ran: which phase needs
  // the memory is where to look first.
  const phasePeaks: { phase: string; peak: number }[] = [{ phase: 'start', peak: 0 }];
  const sample = () => {
    const apiRss = rssBytes(apiPid) ?? 0;
    const childRss = nodeChildPids(apiPid).reduce((sum, pid) => sum + (rssBytes(pid) ?? 0), 0);
    peakRss = Math.max(peakRss, apiRss);
    peakChildRss = Math.max(peakChildRss, childRss);
    peakTotalRss = Math.max(peakTotalRss, apiRss + childRss);
    const current = phasePeaks[phasePeaks.length - 1]!;
    current.peak = Math.max(current.peak, apiRss + childRss);
    return { apiRss, childRss };
  };
  const timer = setInterval(sample, 500);
  return {
    stop: () => clearInterval(timer),
    /** The samples from now on count toward `phase`'s peak. */
    phase(phase: string) {
      sample();
      phasePeaks.push({ phase, peak: 0 });
    },
    /** Stops sampling and takes a last sample: the memory figure. */
    finish(): Figure {
      clearInterval(timer);
      const end = sample();
      // Judged on the peak: what the processes needed, not what they kept.
      return {
        section: 'memory',
        name: 'peak RSS during the load, API server process (projector thread inside) and its Node children',
        value: peakTotalRss > 0 ? peakTotalRss / MB : null,
        unit: 'MB',
        target: { atMost: 300 },
        note:
          `VmRSS sampled every 500 ms; peaks: API process ${format(peakRss / MB)} MB, Node children ${format(peakChildRss / MB)} MB; ` +
          `at the end of the load ${format(end.apiRss / MB)} MB and ${format(end.childRss / MB)} MB; ` +
          `peak by phase: ${phasePeaks.map((p) => `${p.phase} ${format(p.peak / MB)} MB`).join(', ')}`,
      };
    },
  };
}
