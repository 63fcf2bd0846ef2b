// Express-only pieces of the HTTP stack, loaded only when Express is the adapter (create-app.ts).
// Express spent about twice Fastify's CPU per login; these cut what Express does per request
// that a client never sees, with every header, status and body byte unchanged (docs/performance.md).
import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { IncomingMessage, ServerResponse } from 'node:http';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** What Express's `res.json` + `res.send` put on a JSON answer of a POST (express/lib/response.js). */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Express's `res.send` writes a string under 1,000 characters as it is and larger ones as a Buffer
 * (its Content-Length is their byte length either way): kept, so `end` gets what it always got.
 */
const BUFFER_FROM_CHARS = 1000;

/**
 * Nest's ExpressAdapter, answering a JSON body of a request that cannot be conditional without
 * Express's `res.json` → `res.send`: those read four app settings, set the Content-Type twice
 * (parsing and formatting it, with a MIME table look-up), ask `req.fresh`, and check the status for
 * 204/205/304, all for the same result on a POST. Anything else (GET and HEAD, which Express may
 * answer 304 or without a body, a Content-Type or Transfer-Encoding already set, a status without a
 * body, streamed files, errors) goes through Express as before.
 */
export class LeanExpressAdapter extends ExpressAdapter {
  override reply(response: ServerResponse & { req: IncomingMessage }, body: unknown, statusCode?: number): unknown {
    const json = typeof body === 'object' && body !== null && !(body instanceof StreamableFile) && !(body instanceof Error);
    if (!json || !answersWithoutExpress(response, statusCode)) return super.reply(response, body, statusCode);
    const text: unknown = JSON.stringify(body);
    if (typeof text !== 'string') return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.statusCode = statusCode;
    response.setHeader('Content-Type', JSON_TYPE);
    response.setHeader('Content-Length', String(Buffer.byteLength(text, 'utf8')));
    return text.length < BUFFER_FROM_CHARS ? response.end(text, 'utf8') : response.end(Buffer.from(text, 'utf8'));
  }
}

function answersWithoutExpress(response: ServerResponse & { req: IncomingMessage }, statusCode?: number): boolean {
  const method = response.req.method;
  const status = statusCode ?? response.statusCode;
  return (
    method !== 'GET' &&
    method !== 'HEAD' &&
    status !== 204 &&
    status !== 205 &&
    status !== 304 &&
    !response.hasHeader('content-type') &&
    !response.hasHeader('transfer-encoding')
  );
}

/**
 * Plain Node middlewares run one after the other as a single Express layer. Express's router walks
 * its layer list, parses the URL and wraps each call for every layer a request passes; the
 * project's global middlewares are synchronous and always call `next` (or answer), so one layer
 * does the same work in the same order. A throw still reaches Express's error handling, as before.
 */
export function inSequence(...steps: Middleware[]): Middleware {
  return (req, res, next) => {
    let index = 0;
    const step = (): void => {
      const middleware = steps[index++];
      if (middleware) middleware(req, res, step);
      else next();
    };
    step();
  };
}
