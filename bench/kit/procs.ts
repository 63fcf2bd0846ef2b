// CPU time and memory of process trees from /proc, for the kit's driver: the service (its primary
// and workers), PostgreSQL (the postmaster and its backends), Redis, the load generators, and the
// whole machine. A process that starts during a run counts from zero; one that exits counts nothing.
import { readdirSync, readFileSync } from 'node:fs';

const CLK = Number(process.env.KIT_CLK_TCK) || 100;

interface Stat {
  ppid: number;
  ms: number;
}

function stat(pid: string): Stat | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ms: ((Number(f[11]) + Number(f[12])) * 1000) / CLK };
  } catch {
    return null;
  }
}

/** The pids of each root's tree (the root and every descendant) with their CPU ms so far. */
export function trees(roots: Record<string, number[]>): Record<string, Map<number, number>> {
  const all = new Map<number, Stat>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    const s = stat(e);
    if (s) all.set(Number(e), s);
  }
  const children = new Map<number, number[]>();
  for (const [pid, s] of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  const out: Record<string, Map<number, number>> = {};
  for (const [key, pids] of Object.entries(roots)) {
    const m = new Map<number, number>();
    const stack = [...pids];
    while (stack.length) {
      const pid = stack.pop() as number;
      const s = all.get(pid);
      if (!s || m.has(pid)) continue;
      m.set(pid, s.ms);
      stack.push(...(children.get(pid) ?? []));
    }
    out[key] = m;
  }
  return out;
}

export interface Snapshot {
  at: number;
  trees: Record<string, Map<number, number>>;
  machineTotal: number;
  machineBusy: number;
}

export function snapshot(roots: Record<string, number[]>): Snapshot {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  return {
    at: Date.now(),
    trees: trees(roots),
    machineTotal: (total * 1000) / CLK,
    machineBusy: ((total - cpu[3] - cpu[4]) * 1000) / CLK,
  };
}

/** CPU ms each tree used between two snapshots. */
export function used(before: Snapshot, after: Snapshot, key: string): number {
  let ms = 0;
  for (const [pid, v] of after.trees[key] ?? []) ms += Math.max(0, v - (before.trees[key]?.get(pid) ?? 0));
  return ms;
}

/** Resident memory (MB) of a tree's processes together, now. */
export function residentMb(pids: Iterable<number>): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}
