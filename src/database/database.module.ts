import { DynamicModule, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../migrations';
import { AppConfig } from '../config/app-config';
import { JsonLogger } from '../core/logging/json-logger';
import { ReadinessChecks } from '../core/health/readiness-checks';
import { EmbeddedPostgres } from './embedded-postgres';
import { assertSchemaCurrent, BeforeMigrating, runMigrations, runMigrationsOver } from './migrate';
import { PreparedStatements } from './prepared-statements';
import { ReplicaReads } from './replica-reads';

/** Connections each process (each worker) keeps to a PostgreSQL server; docker/compose.yml's workers × this stay under max_connections. */
export const SERVER_POOL_SIZE = 10;

/**
 * TypeORM on PostgreSQL: the server at DATABASE_URL, or PGlite in DATA_DIR. Migrations run at
 * start on both; the schema is never synchronised from entities.
 */
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    private readonly embedded: EmbeddedPostgres,
    readiness: ReadinessChecks,
  ) {
    readiness.register('schema', () => assertSchemaCurrent(dataSource));
  }

  /** `beforeMigrating`: given the config and logger, what a start does once before it runs pending migrations (the upgrade's backup). */
  static forRoot(beforeMigrating?: (config: AppConfig, logger: JsonLogger) => BeforeMigrating | undefined): DynamicModule {
    const embedded = new EmbeddedPostgres();
    const embeddedProvider = { provide: EmbeddedPostgres, useValue: embedded };
    /** Where the migrations run when not over the service's own connections (MIGRATION_DATABASE_URL). */
    const migrations: { url?: string; before?: BeforeMigrating; logger?: JsonLogger } = {};
    return {
      module: DatabaseModule,
      global: true,
      providers: [embeddedProvider, PreparedStatements, ReplicaReads],
      exports: [EmbeddedPostgres, PreparedStatements, ReplicaReads],
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig, JsonLogger],
          useFactory: async (config: AppConfig, logger: JsonLogger) => {
            migrations.url = config.MIGRATION_DATABASE_URL;
            migrations.before = beforeMigrating?.(config, logger);
            migrations.logger = logger;
            const target = config.DATABASE_URL
              ? { ...connectionTarget(config.DATABASE_URL, config.DATABASE_READ_URL), poolSize: SERVER_POOL_SIZE }
              : {
                  ...(await embedded.start(config.DATA_DIR, config.PORT)),
                  username: 'postgres',
                  database: 'postgres',
                  poolSize: 1,
                };
            if (!config.DATABASE_URL) logger.entry('info', 'embedded PostgreSQL started', { data_dir: config.DATA_DIR });
            return {
              type: 'postgres' as const,
              ...target,
              autoLoadEntities: true,
              synchronize: false,
              migrationsRun: false,
              migrations: MIGRATIONS,
              // The migrations own the schema, extensions included (gen_random_uuid is built in): TypeORM
              // would otherwise CREATE EXTENSION "uuid-ossp" at every start, a schema change of its own.
              installExtensions: false,
              // A query issued outside the one embedded connection fails fast instead of waiting forever.
              extra: { connectionTimeoutMillis: 10_000 },
              logging: false,
            };
          },
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            const ran = migrations.url
              ? await runMigrationsOver(migrations.url, migrations.before)
              : await runMigrations(dataSource, isServer(options!), migrations.before);
            if (ran.length) migrations.logger?.entry('info', 'migrations applied', { migrations: ran });
            return dataSource;
          },
        }),
      ],
    };
  }

  /** The data source closes before the embedded server that it talks to. */
  async onApplicationShutdown(): Promise<void> {
    try {
      if (this.dataSource.isInitialized) await this.dataSource.destroy();
    } finally {
      await this.embedded.stop();
    }
  }
}

/**
 * The server at DATABASE_URL; with DATABASE_READ_URL a replicated pair whose default for every
 * read is still the primary: only ReplicaReads asks for the replica, by name.
 */
function connectionTarget(primaryUrl: string, replicaUrl: string | undefined) {
  if (!replicaUrl) return { url: primaryUrl };
  return { replication: { master: { url: primaryUrl }, slaves: [{ url: replicaUrl }], defaultMode: 'master' as const } };
}

function isServer(options: DataSourceOptions): boolean {
  const target = options as { url?: string; replication?: unknown };
  return target.url !== undefined || target.replication !== undefined;
}
