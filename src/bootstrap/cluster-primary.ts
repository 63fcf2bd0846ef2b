import cluster, { type Worker } from 'node:cluster';
import { AppConfig } from '../config/app-config';
import { JsonLogger } from '../core/logging/json-logger';
import { CLUSTER_WORKER_ENV, PrimaryMetricsAggregator } from '../http/metrics/cluster-metrics';
import { DRAIN_LIMIT_MS, messageType, WORKER_DRAIN, WORKER_READY } from './cluster-worker';

/** A worker that lived at least this long before exiting was healthy: its replacement starts at once. */
const HEALTHY_AFTER_MS = 30_000;
/** The longest wait before replacing a worker that keeps exiting soon after its start. */
const RESPAWN_MAX_DELAY_MS = 30_000;
/** A new worker of a rolling restart that does not listen within this long is given up. */
const START_TIMEOUT_MS = 120_000;

interface Slot {
  worker: Worker;
  startedAt: number;
  /** Listening: it takes connections. */
  serving: boolean;
  /** Asked to drain and stop (rolling restart). */
  retiring: boolean;
  /** Started by a rolling restart and not serving yet: if it dies, the restart stops instead of a respawn. */
  candidate: boolean;
  /** Settles when the worker serves (true) or exits first (false). */
  ready: Promise<boolean>;
  settleReady: (serving: boolean) => void;
  exited: Promise<void>;
  settleExit: () => void;
}

/**
 * The primary of a clustered service (WORKERS > 1, PostgreSQL + Redis: docs/operations.md). It runs
 * no app itself: it forks `count` workers that each run the whole service and share the port (the
 * cluster module hands connections round-robin to the workers that listen), and then
 *
 * - replaces a worker that exits unexpectedly, at once if it had run HEALTHY_AFTER_MS, else after a
 *   back-off doubling from 1 s to RESPAWN_MAX_DELAY_MS, so a crash loop does not spin;
 * - on SIGHUP restarts the workers one at a time: a new worker starts, and only once it listens is
 *   an old one asked to drain (cluster-worker.ts), so no request is refused; a new worker that fails
 *   to start stops the restart and the old ones keep serving;
 * - on SIGTERM / SIGINT forwards the shutdown to every worker (SIGTERM: each finishes its requests
 *   and closes its database and Redis connections), waits for them up to SHUTDOWN_GRACE_MS, exits;
 * - answers the workers' /metrics with every worker's metrics merged (cluster-metrics.ts).
 *
 * A worker that exits before any worker ever listened is a failed start: the primary stops, as a
 * single process would.
 */
export function runClusterPrimary(config: AppConfig, logger: JsonLogger, count: number, announce: () => void): void {
  const slots = new Map<number, Slot>();
  const restarts = { crash: 0, rolling: 0 };
  let shuttingDown = false;
  let restarting = false;
  let announced = false;
  let everServed = false;
  let quickExits = 0;

  const metrics = new PrimaryMetricsAggregator(() => ({
    serving: [...slots.values()].filter((slot) => slot.serving && !slot.retiring),
    configured: count,
    restarts,
  }));

  const fork = (candidate = false): Slot => {
    const worker = cluster.fork({ [CLUSTER_WORKER_ENV]: '1' });
    let settleReady: (serving: boolean) => void = () => undefined;
    let settleExit: () => void = () => undefined;
    const slot: Slot = {
      worker,
      startedAt: Date.now(),
      serving: false,
      retiring: false,
      candidate,
      ready: new Promise<boolean>((resolve) => (settleReady = resolve)),
      settleReady: (serving) => settleReady(serving),
      exited: new Promise<void>((resolve) => (settleExit = resolve)),
      settleExit: () => settleExit(),
    };
    slots.set(worker.id, slot);
    return slot;
  };

  const fields = (slot: Slot): Record<string, unknown> => ({ worker: slot.worker.id, pid: slot.worker.process.pid });

  cluster.on('message', (worker, message: unknown) => {
    metrics.handle(worker, message);
    if (messageType(message) !== WORKER_READY) return;
    const slot = slots.get(worker.id);
    if (!slot || slot.serving) return;
    slot.serving = true;
    everServed = true;
    logger.entry('info', 'worker started', { ...fields(slot), start_ms: Date.now() - slot.startedAt });
    slot.settleReady(true);
    if (!announced && [...slots.values()].filter((s) => s.serving).length >= count) {
      announced = true;
      announce();
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const slot = slots.get(worker.id);
    if (!slot) return;
    slots.delete(worker.id);
    slot.settleReady(false);
    slot.settleExit();
    const expected = shuttingDown || slot.retiring;
    logger.entry(expected ? 'info' : 'warn', 'worker exited', { ...fields(slot), code, signal, expected });
    if (shuttingDown) {
      if (slots.size === 0) finish();
      return;
    }
    if (slot.retiring || (slot.candidate && !slot.serving)) return; // the rolling restart goes on / stops
    if (!everServed) {
      logger.entry('error', 'a worker failed to start: stopping', fields(slot));
      shutdown('start failure', 1);
      return;
    }
    quickExits = Date.now() - slot.startedAt < HEALTHY_AFTER_MS ? quickExits + 1 : 1;
    const delay = quickExits <= 1 ? 0 : Math.min(RESPAWN_MAX_DELAY_MS, 1000 * 2 ** (quickExits - 2));
    logger.entry('warn', 'worker respawning', { replaces: worker.id, in_ms: delay, quick_exits: quickExits });
    setTimeout(() => {
      if (shuttingDown) return;
      restarts.crash += 1;
      fork();
    }, delay); // not unref'd: with every worker gone, this timer is what keeps the primary alive
  });

  /** Asks a worker to drain and stop; past the drain and the grace, kills it. */
  const retire = async (slot: Slot): Promise<void> => {
    slot.retiring = true;
    logger.entry('info', 'worker retiring', fields(slot));
    if (slot.worker.isConnected()) slot.worker.send({ type: WORKER_DRAIN });
    else slot.worker.process.kill('SIGTERM');
    const timer = setTimeout(() => slot.worker.process.kill('SIGKILL'), DRAIN_LIMIT_MS + config.SHUTDOWN_GRACE_MS + 2000);
    await slot.exited;
    clearTimeout(timer);
  };

  const startOrGiveUp = async (slot: Slot): Promise<boolean> => {
    const timer = setTimeout(() => slot.worker.process.kill('SIGKILL'), START_TIMEOUT_MS);
    const serving = await slot.ready;
    clearTimeout(timer);
    return serving;
  };

  const rollingRestart = async (): Promise<void> => {
    if (shuttingDown) return;
    if (restarting) {
      logger.entry('info', 'rolling restart already under way (SIGHUP ignored)');
      return;
    }
    restarting = true;
    const old = [...slots.values()].filter((slot) => !slot.retiring && !slot.candidate);
    logger.entry('info', 'rolling restart', { signal: 'SIGHUP', workers: old.length });
    try {
      for (const slot of old) {
        if (shuttingDown) return;
        if (!slots.has(slot.worker.id)) continue; // exited (and was replaced) meanwhile
        const fresh = fork(true);
        if (!(await startOrGiveUp(fresh))) {
          if (shuttingDown) return;
          logger.entry('error', 'rolling restart stopped: a new worker did not start; the others keep serving', fields(fresh));
          return;
        }
        fresh.candidate = false;
        restarts.rolling += 1;
        await retire(slot);
      }
      logger.entry('info', 'rolling restart done', { workers: slots.size });
    } finally {
      restarting = false;
    }
  };

  let exitCode = 0;
  const finish = (): void => {
    logger.entry('info', 'stopped', { workers: 0 });
    process.exit(exitCode);
  };

  function shutdown(reason: string, code = 0): void {
    if (shuttingDown) return;
    shuttingDown = true;
    exitCode = code;
    logger.entry('info', `shutting down (${reason})`, { signal: reason, workers: slots.size });
    for (const slot of slots.values()) slot.worker.process.kill('SIGTERM');
    setTimeout(() => {
      logger.entry('error', 'workers still running past SHUTDOWN_GRACE_MS: killed', { workers: [...slots.keys()] });
      for (const slot of slots.values()) slot.worker.process.kill('SIGKILL');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS + 1000).unref();
    if (slots.size === 0) finish();
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => shutdown(signal));
  process.on('SIGHUP', () => void rollingRestart());

  logger.entry('info', 'cluster starting', { workers: count, pid: process.pid });
  for (let i = 0; i < count; i++) fork();
}
