import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * After each chunk the import rests as long as the chunk's statements took (at most this long):
 * with one connection (the embedded database) a login's statements would otherwise queue behind
 * one import statement each, and with many (a PostgreSQL server) the import takes at most half of
 * the database's time. An import takes about twice as long; no other project waits for it.
 */
const MAX_REST_MS = 250;
/** How often a running import says it is alive (`card_batches.heartbeat_at`). */
export const IMPORT_HEARTBEAT_MS = 10_000;

/** Rests as long as the work since `started` took (see MAX_REST_MS). */
export async function rest(started: number): Promise<void> {
  await sleep(Math.min(MAX_REST_MS, Math.max(1, performance.now() - started)));
}
