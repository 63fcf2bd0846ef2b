import { ServiceProcess, startServiceProcess } from './service-process';
import { acquireStores, AppStores, copyEmbeddedTemplate } from './stores';
import { ADMIN_PASSWORD } from './test-app';

export interface ServiceProcessStores {
  /** What a service process of this spec runs with: the stores' settings, the admin, the adapter of the pass. */
  env(): Record<string, string>;
  /** Starts a service process on the spec's stores; the last one started is stopped after the spec. */
  start(): Promise<ServiceProcess>;
}

/**
 * Stores of their own for the real service processes one spec starts (restarts, kills), acquired
 * before its tests and given back after them. On the embedded database the run's migrated
 * template is copied into the stores' DATA_DIR, so a process starts on a migrated database as an
 * app of test-app.ts does; with DATABASE_URL the stores are a clone of the template database.
 */
export function serviceProcessStores(extraEnv: Record<string, string> = {}): ServiceProcessStores {
  let stores: AppStores | undefined;
  let last: ServiceProcess | undefined;
  beforeAll(async () => {
    stores = await acquireStores({ ...process.env });
    if (!stores.env.DATABASE_URL) copyEmbeddedTemplate(stores.env.DATA_DIR);
  });
  afterAll(async () => {
    await last?.kill('SIGTERM');
    await stores?.leave();
  });
  const env = (): Record<string, string> => ({
    ...stores!.env,
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD,
    APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY ?? 'a'.repeat(64),
    ...extraEnv,
  });
  return { env, start: async () => (last = await startServiceProcess(env())) };
}
