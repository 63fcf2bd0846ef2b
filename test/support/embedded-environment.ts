import { TestEnvironment } from 'jest-environment-node';
import { EMBEDDED_DUMP_ENV, EMBEDDED_POOL_GLOBAL, EmbeddedPool } from './embedded-pool';
import { PostgresPool } from './postgres-pool';
import { PG_TEMPLATE_ENV, POSTGRES_POOL_GLOBAL } from './stores';

/**
 * The e2e test environment: Node's, plus the worker's pools of test databases (embedded, and with
 * DATABASE_URL PostgreSQL). Jest loads this module once per worker (outside the module registry it
 * gives each test file), so the pools, and the databases in them, outlive a file and serve the next.
 */
let pool: EmbeddedPool | undefined;
let postgres: PostgresPool | undefined;

/** jest-worker's message telling a worker to end (`CHILD_MESSAGE_END`, which its types do not export). */
const CHILD_MESSAGE_END = 2;

/**
 * Jest ends a worker with a message, then gives its event loop half a second to drain before it
 * kills it ("a worker process has failed to exit gracefully"). Each pooled database keeps a 10 s
 * timer (PostgreSQL's statistics flush, run by PGlite as a Node timer), and closing them takes
 * longer than that half second on a busy machine. They live in memory only, with nothing to keep:
 * the worker exits as the message comes.
 */
function exitOnEnd(message: unknown): void {
  if (Array.isArray(message) && message[0] === CHILD_MESSAGE_END) process.exit(0);
}
if (process.send) process.on('message', exitOnEnd);

export default class EmbeddedEnvironment extends TestEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    // CK_TEST_POOLS=off: every app makes its database afresh (to compare timings or rule out the pools).
    if (process.env.CK_TEST_POOLS === 'off') return;
    const dump = process.env[EMBEDDED_DUMP_ENV];
    if (dump) this.global[EMBEDDED_POOL_GLOBAL] = pool ??= new EmbeddedPool(dump);
    const template = process.env[PG_TEMPLATE_ENV];
    const databaseUrl = process.env.DATABASE_URL;
    if (template && databaseUrl) this.global[POSTGRES_POOL_GLOBAL] = postgres ??= new PostgresPool(databaseUrl, template);
  }

  override async teardown(): Promise<void> {
    // In band (no worker process, so no end message), idle databases would hold the run open after
    // its last file. A worker exits on its end message instead: closing them on a timer there could
    // start while the message is on its way (the other worker still running its last file), and
    // PGlite's close kept the loop busy past Jest's half second (the warning, in CI, now and then).
    if (!process.send) pool?.closeIdleAfter(1000);
    await super.teardown();
  }
}
