import { readdirSync, readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import type pg from 'pg';

/** /proc counts CPU time in USER_HZ ticks, 100 a second on Linux whatever the kernel's own rate. */
const TICKS_PER_SECOND = 100;

/**
 * A reader of the CPU milliseconds a PostgreSQL cluster on this machine has used so far: its
 * postmaster's, its finished children's (backends, parallel workers, autovacuum) and its
 * running children's. On a busy machine a step's wall time grows with the load, its CPU
 * time does not. Null when the server is not on this machine or its process cannot be read.
 */
export async function postgresCpuReader(db: Knex | pg.Pool): Promise<(() => number) | null> {
  try {
    const sql = `SELECT split_part(pg_read_file('postmaster.pid'), E'\\n', 1) AS pid`;
    const result: { rows: Array<{ pid: string }> } = 'raw' in db ? await db.raw(sql) : await db.query(sql);
    const pid = Number(result.rows[0]?.pid);
    if (!Number.isInteger(pid) || pid <= 0) return null;
    const read = () => {
      // utime, stime, cutime, cstime: fields 14-17 of stat, counted after the command's ')'.
      let ticks = statFields(`/proc/${pid}/stat`)
        .slice(11, 15)
        .reduce((sum, value) => sum + value, 0);
      for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean)) {
        try {
          ticks += statFields(`/proc/${child}/stat`)
            .slice(11, 13)
            .reduce((sum, value) => sum + value, 0);
        } catch {
          // Ended since the list was read: its time is in the postmaster's cutime/cstime now.
        }
      }
      return (ticks * 1000) / TICKS_PER_SECOND;
    };
    read();
    return read;
  } catch {
    return null;
  }
}

/**
 * CPU milliseconds a process (all its threads) has used so far, null when it cannot be read
 * (not Linux). Unlike wall time, it does not grow when other work on the machine competes.
 */
export function processCpuMs(pid: number): number | null {
  try {
    const [utime = 0, stime = 0] = statFields(`/proc/${pid}/stat`).slice(11, 13);
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * CPU milliseconds one thread of a process has used so far (`tid` = `pid`: its main thread,
 * the one that runs a Node process's event loop), null when it cannot be read.
 */
export function threadCpuMs(pid: number, tid: number): number | null {
  try {
    const [utime = 0, stime = 0] = statFields(`/proc/${pid}/task/${tid}/stat`).slice(11, 13);
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * CPU milliseconds the threads of a process that bear `name` (their `comm`, as the thread
 * set it: infra/thread-name.ts) have used so far, together; null when none does or /proc
 * cannot be read. A thread that ended since is not counted: read before and after a run
 * whose thread lives through it.
 */
export function namedThreadsCpuMs(pid: number, name: string): number | null {
  try {
    let ticks = 0;
    let found = false;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() !== name) continue;
        const [utime = 0, stime = 0] = statFields(`/proc/${pid}/task/${tid}/stat`).slice(11, 13);
        ticks += utime + stime;
        found = true;
      } catch {
        // Ended since the list was read.
      }
    }
    return found ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

function statFields(file: string): number[] {
  const stat = readFileSync(file, 'utf8');
  return stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
}
