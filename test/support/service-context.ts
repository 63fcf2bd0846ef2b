import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../src/app.module';
import { JsonLogger } from '../../src/core/logging/json-logger';
import { useEmbeddedSource } from '../../src/database/embedded-postgres';
import { acquireStores, embeddedPool } from './stores';
import { testConfig } from './test-app';

useEmbeddedSource(embeddedPool());

export interface ServiceContext {
  /** The application's providers, resolved with `get`: domain services and repositories. */
  app: INestApplicationContext;
  logs: string[];
  close: () => Promise<void>;
}

/**
 * The service tier (test/service/): the whole application's providers on stores of their own, the
 * pooled real database of the pass (a copy of the run's migrated template, as test apps get), with
 * no HTTP stack. A test calls domain services directly to reach each branch of a rule; what a
 * client sees of the rule (codes, envelopes, statuses) stays with the end-to-end tests.
 */
export async function startServiceContext(env: Record<string, string> = {}): Promise<ServiceContext> {
  const stores = await acquireStores({ ...process.env, ...env });
  const logs: string[] = [];
  let app: INestApplicationContext;
  try {
    const config = testConfig({ ...env, ...stores.env });
    const logger = new JsonLogger('info', (line) => logs.push(line));
    app = await NestFactory.createApplicationContext(AppModule.forRoot(config, logger), { logger: false });
  } catch (error) {
    await stores.leave().catch(() => undefined);
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    app,
    logs,
    close: () =>
      (closed ??= (async () => {
        try {
          await app.close();
        } finally {
          await stores.leave();
        }
      })()),
  };
}
