import { INestApplication } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/bootstrap/create-app';
import { loadConfig } from '../../src/config/app-config';
import { JsonLogger } from '../../src/core/logging/json-logger';
import { TEMPLATE_ENV } from './global-setup';

export const ADMIN_PASSWORD = 'admin-password-for-tests';

export interface TestApp {
  app: INestApplication;
  http: () => ReturnType<typeof request>;
  /** Listens on a free local port (once) and gives the service's address, for clients that use fetch. */
  baseUrl: () => Promise<string>;
  logs: string[];
  close: () => Promise<void>;
}

/**
 * Boots the real application through the real HTTP stack. The database is PGlite in a fresh
 * directory, or the PostgreSQL at DATABASE_URL when the environment sets it (with REDIS_URL for
 * shared state); HTTP_ADAPTER picks Express or Fastify. Log lines are captured for assertions.
 */
export async function startTestApp(env: Record<string, string> = {}, options: { clientAddress?: string } = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ck-test-'));
  const template = process.env[TEMPLATE_ENV];
  if (template && !process.env.DATABASE_URL) cpSync(template, join(dataDir, 'pgdata'), { recursive: true });
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD,
    APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY ?? 'a'.repeat(64),
    LOG_LEVEL: 'info',
    // Suites log in often; the throttle itself is tested with its own low limit.
    ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '10000',
    APP_USER_LOGIN_ATTEMPTS_PER_MINUTE: '10000',
    ...(options.clientAddress ? { TRUST_PROXY: '127.0.0.1' } : {}),
    ...env,
  });
  const logs: string[] = [];
  const app = await createApp(config, new JsonLogger('info', (line) => logs.push(line)));
  try {
    await app.init();
    if (config.HTTP_ADAPTER === 'fastify') await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
  } catch (error) {
    await app.close().catch(() => undefined); // releases the embedded database so Jest can exit
    throw error;
  }
  const server = app.getHttpServer();
  let listening: Promise<string> | undefined;
  return {
    app,
    logs,
    http: options.clientAddress ? () => fromAddress(request(server), options.clientAddress!) : () => request(server),
    baseUrl: () => (listening ??= app.listen(0, '127.0.0.1').then(() => app.getUrl())),
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Requests that come from `address` (X-Forwarded-For, believed from loopback): with Redis, failure
 * counters of an address are shared by every suite, so a suite that tests them needs its own.
 */
function fromAddress(agent: ReturnType<typeof request>, address: string): ReturnType<typeof request> {
  return new Proxy(agent, {
    get: (target, method: string) => (url: string) => (target[method as 'get'](url) as request.Test).set('X-Forwarded-For', address),
  });
}

/** A client address no other run or suite uses (for tests of per-address limits). */
export function uniqueAddress(): string {
  const octet = () => Math.floor(Math.random() * 250) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

let counter = 0;
/** A name unique within this run, so suites can share one PostgreSQL without clashing. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${process.pid.toString(36)}${Date.now().toString(36).slice(-5)}${counter}`.slice(0, 32);
}
