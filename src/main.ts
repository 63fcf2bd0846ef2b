import 'reflect-metadata';
import cluster from 'node:cluster';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { CONSOLE_PATH } from './console/console-middleware';
import { asListenRefusal, assertCanListen } from './bootstrap/listen-errors';
import { localUrl, startBanner } from './bootstrap/start-banner';
import { JsonLogger } from './core/logging/json-logger';
import { isClusterWorker } from './http/metrics/cluster-metrics';

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
  const workers = config.workerCount;
  if (workers > 1 && cluster.isPrimary) {
    // The primary runs no app (so the app's modules are not even loaded here): it forks the workers,
    // each of which comes back through this file and serves below (docs/operations.md).
    await assertCanListen(config); // a port in use: one line, rather than every worker failing
    const { runClusterPrimary } = await import('./bootstrap/cluster-primary');
    runClusterPrimary(config, logger, workers, () => announce(config, logger, workers));
    return;
  }
  const { createApp } = await import('./bootstrap/create-app');
  const app = await createApp(config, logger);
  // The doctor's checks (src/doctor): exits 1 before listening when answers would be wrong, else warns in one block.
  await (await import('./doctor/start-checks')).checkAtStart(app, config, logger);
  // enableShutdownHooks (create-app.ts) closes the app on these signals: the server stops accepting,
  // in-flight requests finish, then the database and Redis close. Past the grace period, exit anyway.
  // `app.close()` here joins that same shutdown (Nest runs it once), so "stopped" follows its end.
  const who = isClusterWorker() ? { pid: process.pid } : {};
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.entry('info', `shutting down (${signal})`, { signal, ...who });
      setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_MS).unref();
      void app.close().then(
        () => logger.entry('info', 'stopped', { signal, ...who }),
        (error: unknown) => logger.entry('error', 'shutdown failed', { signal, error: String(error), ...who }),
      );
    });
  }
  try {
    // A port in use (or not ours to open): "Failed to start: port 3000 is in use by another process: set PORT or stop it".
    if (!isClusterWorker()) await assertCanListen(config);
    await app.listen(config.PORT, config.HOST);
  } catch (error) {
    await Promise.race([app.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    throw asListenRefusal(error, config);
  }
  if (config.servesTls && !isClusterWorker()) {
    // A renewed certificate without a restart; clustered workers read the files when SIGHUP restarts them.
    const { reloadTls } = await import('./bootstrap/tls');
    process.on('SIGHUP', () => {
      try {
        reloadTls(app.getHttpServer(), config);
        logger.entry('info', 'TLS certificate reloaded', { signal: 'SIGHUP' });
      } catch (error) {
        logger.entry('error', 'TLS certificate reload failed; the previous one is still served', { error: String(error) });
      }
    });
  }
  if (isClusterWorker()) {
    // The primary writes the one banner once every worker listens.
    const { serveAsClusterWorker } = await import('./bootstrap/cluster-worker');
    serveAsClusterWorker(app.getHttpServer(), config.SHUTDOWN_GRACE_MS, logger);
    return;
  }
  announce(config, logger, 1);
}

function announce(config: AppConfig, logger: JsonLogger, workers: number): void {
  const [listening, ...rest] = startBanner(config, localUrl(config), { consolePath: `${CONSOLE_PATH}/`, workers });
  logger.entry('info', listening, {
    adapter: config.HTTP_ADAPTER,
    access_log: config.ACCESS_LOG,
    ...(workers > 1 ? { workers } : {}),
  });
  for (const line of rest) logger.entry('info', line);
}

main().catch((error) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
