import { TestEnvironment } from 'jest-environment-node';
import { EMBEDDED_DUMP_ENV, EMBEDDED_POOL_GLOBAL, EmbeddedPool } from './embedded-pool';

/**
 * The e2e test environment: Node's, plus the worker's pool of embedded databases. Jest loads this
 * module once per worker (outside the module registry it gives each test file), so the pool, and
 * the PGlite instances in it, outlive a file and serve the next one.
 */
let pool: EmbeddedPool | undefined;

export default class EmbeddedEnvironment extends TestEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    const dump = process.env[EMBEDDED_DUMP_ENV];
    if (dump) this.global[EMBEDDED_POOL_GLOBAL] = pool ??= new EmbeddedPool(dump);
  }

  override async teardown(): Promise<void> {
    pool?.closeIdleAfter(1000);
    await super.teardown();
  }
}
