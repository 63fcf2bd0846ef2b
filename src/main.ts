import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app-config';
import { createApp } from './bootstrap/create-app';
import { CONSOLE_PATH } from './console/console-middleware';
import { localUrl, startBanner } from './bootstrap/start-banner';
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
  // enableShutdownHooks (create-app.ts) closes the app on these signals: the server stops accepting,
  // in-flight requests finish, then the database and Redis close. Past the grace period, exit anyway.
  // `app.close()` here joins that same shutdown (Nest runs it once), so "stopped" follows its end.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.entry('info', `shutting down (${signal})`, { signal });
      setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_MS).unref();
      void app.close().then(
        () => logger.entry('info', 'stopped', { signal }),
        (error: unknown) => logger.entry('error', 'shutdown failed', { signal, error: String(error) }),
      );
    });
  }
  await app.listen(config.PORT, config.HOST);
  const url = localUrl(config);
  const [listening, ...rest] = startBanner(config, url, { consolePath: `${CONSOLE_PATH}/` });
  logger.entry('info', listening, { adapter: config.HTTP_ADAPTER, access_log: config.ACCESS_LOG });
  for (const line of rest) logger.entry('info', line);
}

main().catch((error) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
