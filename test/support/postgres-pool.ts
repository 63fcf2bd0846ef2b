import { randomBytes } from 'node:crypto';
import { dropDatabase, quoteIdent, withDatabase, withPg } from './stores';
import { fingerprint, readTemplate, Sql, TemplateState } from './template-state';

const MAX_IDLE = 2;

/**
 * Databases cloned from the run's migrated template for the test apps of one Jest worker, kept
 * across its test files (embedded-environment.ts holds the pool): a database given back is emptied
 * to the template's rows and sequences and handed to the next app, instead of a DROP DATABASE and
 * a CREATE DATABASE … TEMPLATE per app. One whose schema a test changed is dropped.
 */
export class PostgresPool {
  private readonly idle: string[] = [];
  private template?: Promise<TemplateState>;
  private counter = 0;

  /** `baseUrl`: the run's DATABASE_URL; `templateName`: the run's migrated template database. */
  constructor(
    readonly baseUrl: string,
    private readonly templateName: string,
  ) {}

  async take(): Promise<{ url: string; release(): Promise<void> }> {
    const name = this.idle.pop() ?? (await this.create());
    let released: Promise<void> | undefined;
    return { url: withDatabase(this.baseUrl, name), release: () => (released ??= this.recycle(name)) };
  }

  private async create(): Promise<string> {
    this.counter += 1;
    // `<template>_<worker pid>_<n><random>`: the global teardown drops every `<template>_%` left.
    const name = `${this.templateName}_${process.pid.toString(36)}_${this.counter}${randomBytes(3).toString('hex')}`;
    await withPg(this.baseUrl, (client) =>
      client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(this.templateName)}`),
    );
    // Read from a fresh clone: the template itself must stay free of sessions for the next CREATE DATABASE.
    this.template ??= withPg(withDatabase(this.baseUrl, name), (db) => readTemplate(sqlOf(db)));
    await this.template;
    return name;
  }

  private async recycle(name: string): Promise<void> {
    try {
      if (this.idle.length >= MAX_IDLE) throw new Error('enough idle databases');
      const template = await this.template!;
      await withPg(withDatabase(this.baseUrl, name), async (db) => {
        if ((await fingerprint(sqlOf(db))) !== template.fingerprint) throw new Error('the schema was changed');
        await db.transaction(async (tx) => {
          await tx.query(`SET LOCAL lock_timeout = '5s'`); // a session the app left behind: drop rather than wait
          for (const { sql, params } of template.reset) await tx.query(sql, params);
        });
      });
      this.idle.push(name);
    } catch {
      await dropDatabase(this.baseUrl, name);
    }
  }
}

function sqlOf(db: { query(sql: string, params?: unknown[]): Promise<unknown> }): Sql {
  return async <T>(sql: string, params?: unknown[]) => (await db.query(sql, params)) as T[];
}
