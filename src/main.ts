import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app-config';
import { createApp } from './bootstrap/create-app';
import { JsonLogger } from './core/logging/json-logger';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = new JsonLogger(config.LOG_LEVEL);
  const app = await createApp(config, logger);
  // enableShutdownHooks closes the app on these signals: the server stops accepting, in-flight
  // requests finish, then the database and Redis close. Past the grace period, exit anyway.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_MS).unref());
  }
  await app.listen(config.PORT, config.HOST);
  const url = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`;
  logger.entry('info', `listening on ${url}`, {
    adapter: config.HTTP_ADAPTER,
    database: config.DATABASE_URL ? 'postgresql' : `embedded (${config.DATA_DIR})`,
    shared_state: config.REDIS_URL ? 'redis' : 'in-process',
    admin_login: `POST ${url}/admin/v1/auth/login as "${config.ADMIN_USERNAME}" (password: ADMIN_PASSWORD, or ${config.DATA_DIR}/admin-password.txt when it was generated)`,
    api_docs: `${url}/docs`,
  });
}

main().catch((error) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
