import { INestApplication } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { createApp } from '../../src/bootstrap/create-app';
import { AppConfig, CONFIG_KEYS, loadConfig } from '../../src/config/app-config';
import { JsonLogger } from '../../src/core/logging/json-logger';
import { useEmbeddedSource } from '../../src/database/embedded-postgres';
import { acquireStores, AppStores, embeddedPool } from './stores';

useEmbeddedSource(embeddedPool());

export const ADMIN_PASSWORD = 'admin-password-for-tests';

/** Every request-rate limit (src/core/throttling/rate-limits.ts) raised far above what a suite sends. */
export const TEST_RATE_LIMITS: Record<string, string> = Object.fromEntries(
  CONFIG_KEYS.filter((key) => key.startsWith('RATE_LIMIT_') && key.includes('_PER_')).map((key) => [key, '100000']),
);

/** The configuration a test instance runs with: the run's environment, test accounts and limits, then `env`. */
export function testConfig(env: Record<string, string>): AppConfig {
  return loadConfig({
    ...process.env,
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD,
    APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY ?? 'a'.repeat(64),
    LOG_LEVEL: 'info',
    // Suites log in often; the throttle itself is tested with its own low limit.
    ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '10000',
    APP_USER_LOGIN_ATTEMPTS_PER_MINUTE: '10000',
    // Suites register, sign in and write from one address all the time; the request-rate limits
    // stay on (their headers are answered) and are tested with their own low limits.
    ...TEST_RATE_LIMITS,
    ...env,
  });
}

export interface TestApp {
  app: INestApplication;
  http: () => ReturnType<typeof request>;
  /** Listens on a free local port (once) and gives the service's address, for clients that use fetch. */
  baseUrl: () => Promise<string>;
  logs: string[];
  /** What this app was started with: its own DATA_DIR, and its own database and Redis database when the run uses them. */
  env: Record<string, string>;
  close: () => Promise<void>;
  /** The stores this app runs on (test/support/stores.ts), for a second instance (`shareWith`). */
  readonly stores: AppStores;
}

export interface StartOptions {
  /** Every request comes from this client address (X-Forwarded-For from a trusted loopback proxy). */
  clientAddress?: string;
  /**
   * A second instance of the same deployment: it joins the database and Redis database of
   * `shareWith` (which needs DATABASE_URL) instead of getting its own. The stores go when the last
   * of the apps that use them closes.
   */
  shareWith?: TestApp;
  /** Stores the caller acquired (acquireStores), to know their database before the app starts; the app gives them back at close. */
  stores?: AppStores;
}

/**
 * Boots the real application through the real HTTP stack, on stores of its own (stores.ts): the
 * embedded database (PGlite) copied from the run's migrated template, or with DATABASE_URL a
 * database cloned from the run's template database, and with REDIS_URL a Redis logical database of
 * its own; nothing it writes is seen by any other test app unless it was started with `shareWith`.
 * HTTP_ADAPTER picks Express or Fastify. Log lines are captured for assertions.
 */
export async function startTestApp(env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestApp> {
  const stores = options.shareWith?.stores ?? options.stores ?? (await acquireStores({ ...process.env, ...env }));
  if (options.shareWith) stores.join();
  const appEnv = { ...env, ...stores.env };
  let config: AppConfig;
  let app: INestApplication;
  const logs: string[] = [];
  try {
    config = testConfig({ ...(options.clientAddress ? { TRUST_PROXY: '127.0.0.1' } : {}), ...appEnv });
    app = await createApp(config, new JsonLogger('info', (line) => logs.push(line)));
  } catch (error) {
    await stores.leave().catch(() => undefined);
    throw error;
  }
  try {
    await app.init();
    if (config.HTTP_ADAPTER === 'fastify') await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
  } catch (error) {
    await app.close().catch(() => undefined); // releases the embedded database so Jest can exit
    await stores.leave().catch(() => undefined);
    throw error;
  }
  const server = app.getHttpServer();
  let listening: Promise<string> | undefined;
  let closed: Promise<void> | undefined;
  return {
    app,
    logs,
    env: appEnv,
    stores,
    http: options.clientAddress ? () => fromAddress(request(server), options.clientAddress!) : () => request(server),
    baseUrl: () => (listening ??= app.listen(0, '127.0.0.1').then(() => app.getUrl())),
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

/**
 * Requests that come from `address` (X-Forwarded-For, believed from loopback), for tests of
 * per-address limits that must not meet the other requests of their file.
 */
function fromAddress(agent: ReturnType<typeof request>, address: string): ReturnType<typeof request> {
  return new Proxy(agent, {
    get: (target, method: string) => (url: string) =>
      (target[method as 'get'](url) as request.Test).set('X-Forwarded-For', address),
  });
}

/** A client address that no other test of the file uses (for tests of per-address limits). */
export function uniqueAddress(): string {
  const octet = () => Math.floor(Math.random() * 250) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

let counter = 0;
/** A name unique within this run (usernames, project names), so tests of one file do not clash. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${process.pid.toString(36)}${Date.now().toString(36).slice(-5)}${counter}`.slice(0, 32);
}
