import { AppConfig, ConfigError, loadConfig } from '../../config/app-config';
import { fail, Finding, ok } from './finding';

export function checkConfiguration(env: NodeJS.ProcessEnv): { config: AppConfig | null; finding: Finding } {
  try {
    const config = loadConfig(env);
    const database = config.DATABASE_URL ? 'PostgreSQL' : 'embedded PostgreSQL';
    const store = config.REDIS_SENTINELS ? 'Redis via Sentinel' : config.REDIS_URL ? 'Redis' : 'in-process state';
    return {
      config,
      finding: ok(
        'configuration',
        `valid (${database}, ${store}, ${config.workerCount} worker${config.workerCount > 1 ? 's' : ''})`,
      ),
    };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const problems = error.message
      .split('\n')
      .slice(1)
      .map((line) => line.trim());
    return {
      config: null,
      finding: fail(
        'configuration',
        problems.join('; '),
        'set the variables named here as docs/configuration.md says, then run npm run doctor again',
      ),
    };
  }
}
