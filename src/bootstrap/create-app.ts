import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule } from '../app.module';
import { AppConfig } from '../config/app-config';
import { parseTrustedProxies } from '../http/client-ip';
import { plainHttpRefusal } from '../http/https-required.guard';
import { familyOfPath, pathOf } from '../http/envelope/family';
import { renderFailure } from '../http/envelope/render';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { answerSignatureHeaders } from '../http/answer-signing';
import { answerClientError } from '../http/client-error';
import { chooseRequestId, requestContextMiddleware, requestIdOf } from '../http/request-context';
import { JsonLogger } from '../core/logging/json-logger';
import { buildOpenApiDocument } from '../http/openapi/openapi-document';
import { markRoutePattern } from '../http/finished-request';
import { applySecurityHeaders, helmetHeaders, SecurityHeaders, securityHeaderFields } from '../http/security-headers';
import { RequestObserver } from '../http/request-observer';
import { defaultConsoleDir, loadConsoleFiles } from '../console/console-files';
import { rememberValidationRules } from '../http/validation-rules-cache';
import { consoleMiddleware } from '../console/console-middleware';
import { readTlsFiles, TlsFiles } from './tls';

const BODY_LIMIT_BYTES = 1024 * 1024;

interface FastifyHooks {
  addHook(name: 'onRequest', hook: (request: FastifyRequest, reply: FastifyReply, done: () => void) => void): void;
  addHook(name: 'onSend', hook: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>): void;
}

/**
 * Express: signed answers (decisions §15) get their headers in `end`, which receives the body bytes
 * as sent, before the head goes out; the answer leaves once its signature is computed. Streamed
 * bodies (file downloads) are never marked for signing.
 */
function signAnswersOnEnd(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    const chunk = typeof args[0] === 'function' ? undefined : args[0];
    if (res.headersSent || !(chunk === undefined || typeof chunk === 'string' || Buffer.isBuffer(chunk))) return end(...args);
    const signing = answerSignatureHeaders(req, res.statusCode, chunk as string | Buffer | undefined);
    if (!signing) return end(...args);
    // A signature that cannot be made leaves the answer unsigned, which a pinned client refuses.
    void signing.then(
      (headers) => {
        if (!res.headersSent) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        end(...args);
      },
      () => end(...args),
    );
    return res;
  }) as ServerResponse['end'];
  next();
}

/**
 * Fastify refuses a URL it cannot decode (a broken percent escape) before routing, so before the
 * request context, the hooks and the exception filter: answer it here in the path's family envelope.
 */
function answerBadUrl(securityHeaders: Readonly<Record<string, string>>) {
  return (_error: unknown, request: FastifyRequest, reply: FastifyReply): void => {
    const requestId = chooseRequestId(request.headers['x-request-id']);
    const error = new ServiceError(ErrorCode.BAD_REQUEST, 'The URL has a percent escape that is not UTF-8');
    void reply
      .code(error.httpStatus)
      .headers(securityHeaders)
      .header('x-request-id', requestId)
      .send(renderFailure(familyOfPath(pathOf(request.url)), error, requestId));
  };
}

/**
 * Only the configured adapter's framework is loaded: each weighs about 0.1 s of start (and of every
 * test file). With TLS files, Fastify is made with its HTTPS server; Express gets it from Nest's
 * `httpsOptions` (createApp).
 */
async function httpAdapter(
  fastify: boolean,
  securityHeaders: SecurityHeaders,
  tls: TlsFiles | null,
): Promise<AbstractHttpAdapter> {
  if (!fastify) return new (await import('./express-adapter')).LeanExpressAdapter();
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  const fields = securityHeaderFields(securityHeaders);
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: false,
    frameworkErrors: answerBadUrl(fields),
    clientErrorHandler: answerClientError(fields),
    ...(tls ? { https: tls } : {}),
  });
}

/**
 * Builds the application on the configured HTTP adapter. Everything adapter-specific lives here;
 * controllers, guards, interceptors and filters stay adapter-agnostic.
 */
export async function createApp(config: AppConfig, logger = new JsonLogger(config.LOG_LEVEL)): Promise<INestApplication> {
  const fastify = config.HTTP_ADAPTER === 'fastify';
  rememberValidationRules();
  const securityHeaders = await helmetHeaders();
  const tls = readTlsFiles(config);
  const adapter = await httpAdapter(fastify, securityHeaders, tls);
  const app = await NestFactory.create(AppModule.forRoot(config, logger), adapter, {
    rawBody: true,
    logger,
    abortOnError: false,
    ...(tls && !fastify ? { httpsOptions: tls } : {}),
  });

  // The web console's files (and `/` → /console/) are answered first: they are not API calls, so they
  // carry no request id and stay out of the API's access log and metrics (docs/decisions.md).
  const consoleFiles = consoleMiddleware(loadConsoleFiles(config.CONSOLE_DIR ?? defaultConsoleDir()), plainHttpRefusal(config));
  // Before routing, so unmatched routes get a request id and are counted too.
  const requestContext = requestContextMiddleware(parseTrustedProxies(config.TRUST_PROXY), { echoRequestId: !fastify });
  const observer = app.get(RequestObserver).middleware;

  if (fastify) {
    app.use(consoleFiles);
    app.use(requestContext);
    app.use(observer);
    const instance = app as unknown as {
      register: (plugin: unknown, opts?: unknown) => Promise<void>;
      getHttpAdapter: () => { getInstance: () => FastifyHooks };
    };
    const securityFields = securityHeaderFields(securityHeaders);
    instance
      .getHttpAdapter()
      .getInstance()
      .addHook('onRequest', (request, reply, done) => {
        // The access log and metrics name the matched route, which only Fastify's own request knows.
        markRoutePattern(request.raw, request.routeOptions.url);
        // On Fastify's reply, never the raw response, so that Node writes the head as Fastify hands
        // it over (security-headers.ts). The middleware before this hook chose the request id.
        void reply.headers(securityFields).header('x-request-id', requestIdOf(request));
        done();
      });
    // Signed answers (decisions §15): the payload here is the serialised body, exactly as sent.
    instance
      .getHttpAdapter()
      .getInstance()
      .addHook('onSend', async (request, reply, payload) => {
        if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
          // As on Express: a signature that cannot be made leaves the answer unsigned.
          const headers = await answerSignatureHeaders(request, reply.statusCode, payload)?.catch(() => null);
          if (headers) void reply.headers(headers);
        }
        return payload;
      });
    // File uploads read multipart themselves from the raw Node stream (src/files/multipart-upload.ts),
    // as on Express, whose body parsers leave it unread: this parser only lets such requests through.
    const server = app.getHttpAdapter().getInstance() as {
      addContentTypeParser: (
        type: string,
        parser: (req: unknown, payload: unknown, done: (err: Error | null) => void) => void,
      ) => void;
    };
    server.addContentTypeParser('multipart/form-data', (_req, _payload, done) => done(null));
    // Any other type reaches the input boundary unread, which answers 415 in the route family's
    // envelope (Fastify's own 415 would carry neither the envelope nor the request id).
    server.addContentTypeParser('*', (_req, _payload, done) => done(null));
  } else {
    const { inSequence } = await import('./express-adapter');
    const express = app as unknown as {
      useBodyParser: (type: string, opts: object) => void;
      set: (k: string, v: unknown) => void;
    };
    // helmet removes the header on every answer (and the console's): never setting it spares both calls.
    express.set('x-powered-by', false);
    // One Express layer for the global middlewares, in the order above (express-adapter.ts).
    app.use(
      inSequence(consoleFiles, requestContext, observer, signAnswersOnEnd, (_req, res, next) => {
        applySecurityHeaders(securityHeaders, res);
        next();
      }),
    );
    express.useBodyParser('json', { limit: BODY_LIMIT_BYTES });
    express.useBodyParser('urlencoded', { limit: BODY_LIMIT_BYTES, extended: true });
    express.set('etag', false);
    (app.getHttpServer() as Server).on('clientError', answerClientError(securityHeaderFields(securityHeaders)));
  }

  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });

  app.enableShutdownHooks();
  return app;
}
