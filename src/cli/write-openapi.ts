import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { AppModule } from '../app.module';
import { loadConfig } from '../config/app-config';
import { JsonLogger } from '../core/logging/json-logger';
import { buildOpenApiDocument } from '../http/openapi/openapi-document';

/**
 * `npm run openapi`: writes the document the service serves at /docs-json to openapi.json, without
 * a database (Nest's preview mode resolves no provider). CI compares the two (test/e2e/http/openapi.e2e-spec.ts).
 */
async function main(): Promise<void> {
  const target = process.argv[2] ?? 'openapi.json';
  const config = loadConfig({ ...process.env, DATABASE_URL: '', REDIS_URL: '' });
  const app = await NestFactory.create(AppModule.forRoot(config, new JsonLogger('error')), new ExpressAdapter(), {
    preview: true,
    logger: false,
  });
  writeFileSync(target, JSON.stringify(buildOpenApiDocument(app), null, 2) + '\n');
  await app.close();
}

void main();
