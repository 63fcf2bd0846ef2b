// CPU time by process around each measured run (Linux /proc): who uses the cores.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** CPU ms so far by consumer (PostgreSQL and Redis by pid), and the machine's total and busy CPU ms. */
export interface CpuSnapshot {
  service: number;
  loadgen: number;
  postgres: Map<string, number>;
  redis: Map<string, number>;
  machineTotal: number;
  machineBusy: number;
}

/** CPU ms per request by consumer. */
export interface CpuPerRequest {
  service: number;
  loadgen: number;
  postgres: number;
  redis: number;
  /** The rest of the machine's busy time (other programs, kernel). */
  other: number;
  busyShare: number;
  /** The service's CPU time over the wall time: 1.0 = one core busy all along. */
  serviceCores: number;
}

function readClockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}
const clockTicks = readClockTicks();

function processCpuMs(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return 0;
  }
}

/** The parent pid in a /proc/<pid>/stat line. */
function parentOf(pid: string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}

/**
 * CPU ms so far of the service, the load generator (this process), PostgreSQL and Redis processes,
 * and the machine. `withWorkers`: the service is a cluster primary, and its children (the workers)
 * count as the service too (a worker that exited during the run takes its CPU time with it).
 */
export function cpuSnapshot(servicePid: number, withWorkers = false): CpuSnapshot | null {
  if (!existsSync('/proc/stat')) return null;
  const own = process.cpuUsage();
  const postgres = new Map<string, number>();
  const redis = new Map<string, number>();
  let service = processCpuMs(servicePid);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (withWorkers && parentOf(entry) === servicePid) service += processCpuMs(entry);
    let comm: string;
    try {
      comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (comm === 'postgres') postgres.set(entry, processCpuMs(entry));
    else if (comm === 'redis-server') redis.set(entry, processCpuMs(entry));
  }
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  return {
    service,
    loadgen: (own.user + own.system) / 1000,
    postgres,
    redis,
    machineTotal: (total * 1000) / clockTicks,
    machineBusy: ((total - cpu[3] - cpu[4]) * 1000) / clockTicks,
  };
}

/**
 * CPU ms used during the run by the processes of one kind, pid by pid: a process that started
 * counts from 0, and one that exited (a pooled backend closed for idleness) counts nothing, where a
 * plain sum would have lost its whole lifetime's CPU and handed it to `other`.
 */
function usedByPids(before: Map<string, number>, after: Map<string, number>): number {
  let used = 0;
  for (const [pid, ms] of after) used += Math.max(0, ms - (before.get(pid) ?? 0));
  return used;
}

/** CPU ms per request by consumer; `other` is the rest of the machine's busy time (other programs, kernel). */
export function cpuPerRequest(before: CpuSnapshot | null, after: CpuSnapshot | null, requests: number): CpuPerRequest | null {
  if (!before || !after || !requests) return null;
  const d = (k: 'service' | 'loadgen' | 'machineTotal' | 'machineBusy'): number => after[k] - before[k];
  const postgres = usedByPids(before.postgres, after.postgres);
  const redis = usedByPids(before.redis, after.redis);
  const known = d('service') + d('loadgen') + postgres + redis;
  return {
    service: d('service') / requests,
    loadgen: d('loadgen') / requests,
    postgres: postgres / requests,
    redis: redis / requests,
    other: Math.max(0, d('machineBusy') - known) / requests,
    busyShare: d('machineBusy') / d('machineTotal'),
    serviceCores: d('service') / (d('machineTotal') / os.cpus().length),
  };
}

/** CLOCK_MONOTONIC in µs, the clock of V8 CPU profiles: bench/profile-summary.ts --window uses it. */
export const hrMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/** The pids of a process's children (a clustered service's workers). */
export function childrenOf(pid: number): number[] {
  return existsSync('/proc')
    ? readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry) && parentOf(entry) === pid)
        .map(Number)
    : [];
}

/** A process's resident memory in MB, now (VmRSS) and at its peak so far (VmHWM); null where /proc cannot tell. */
export function residentMb(pid: number): { now: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const [now, peak] = [kb('VmRSS'), kb('VmHWM')];
    return Number.isFinite(now) && Number.isFinite(peak) ? { now: now / 1024, peak: peak / 1024 } : null;
  } catch {
    return null;
  }
}
