import { join, resolve } from 'node:path';
import { AppConfig } from '../config/app-config';

export interface BannerOptions {
  /** Where the web console is served, once there is one (its own issue); without it no console line is shown. */
  consolePath?: string;
  /** Worker processes of a clustered service (cluster-primary.ts); one process shows no such line. */
  workers?: number;
}

/**
 * The few lines the start shows at info (Nest's own start lines are at debug): where it listens,
 * which database and store, how to log in as admin, where the API docs and the console are.
 * Addresses are shown without user name or password; the admin password itself never is.
 */
export function startBanner(config: AppConfig, url: string, options: BannerOptions = {}): string[] {
  const password = config.ADMIN_PASSWORD
    ? 'the password in ADMIN_PASSWORD'
    : `the password in ${join(config.DATA_DIR, 'admin-password.txt')} (generated at first start)`;
  return [
    `listening on ${url}`,
    `database: ${describeDatabase(config)}`,
    `shared state: ${describeStore(config)}`,
    ...(options.workers && options.workers > 1
      ? [`workers: ${options.workers} processes sharing the port (WORKERS=${config.WORKERS}; SIGHUP restarts them one at a time)`]
      : []),
    describeAdapter(config),
    `admin login: POST ${url}/admin/v1/auth/login as "${config.ADMIN_USERNAME}" with ${password}`,
    `API docs: ${url}/docs`,
    ...(options.consolePath ? [`console: ${url}${options.consolePath}`] : []),
  ];
}

/**
 * Which HTTP adapter runs. Releases before 2026-11-27 ran Express unless told otherwise; one
 * upgraded without HTTP_ADAPTER now runs Fastify (same answers, less CPU), which the line says
 * together with how to keep Express.
 */
function describeAdapter(config: AppConfig): string {
  return config.HTTP_ADAPTER === 'express'
    ? 'HTTP adapter: Express (HTTP_ADAPTER=express)'
    : 'HTTP adapter: Fastify (the default since 2026-11-27, Express before it; HTTP_ADAPTER=express runs Express)';
}

/** The address people open: `localhost` when the service listens on every interface. */
export function localUrl(config: AppConfig): string {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return `${config.servesTls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
}

function describeDatabase(config: AppConfig): string {
  if (!config.DATABASE_URL) return `embedded PostgreSQL (PGlite) in ${resolve(config.DATA_DIR, 'pgdata')}`;
  const url = parse(config.DATABASE_URL);
  return url ? `PostgreSQL ${url.host || 'via local socket'}${url.pathname}` : 'PostgreSQL';
}

function describeStore(config: AppConfig): string {
  if (config.REDIS_SENTINELS) {
    return `Redis "${config.REDIS_SENTINEL_MASTER}" via Sentinel ${config.REDIS_SENTINELS}${config.REDIS_DB ? ` database ${config.REDIS_DB}` : ''}`;
  }
  if (!config.REDIS_URL) return 'in process (one instance only)';
  const url = parse(config.REDIS_URL);
  if (!url) return 'Redis';
  const database = url.pathname.length > 1 ? ` database ${url.pathname.slice(1)}` : '';
  return `Redis ${url.host}${database}${url.protocol === 'rediss:' ? ' (TLS)' : ''}`;
}

/** Only host, port and path are read from it: the user name and password are never shown. */
function parse(address: string): URL | undefined {
  try {
    return new URL(address);
  } catch {
    return undefined;
  }
}
