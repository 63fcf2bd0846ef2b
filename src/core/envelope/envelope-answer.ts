import { HttpCode, StreamableFile } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { classifyError } from '../errors/to-service-error';
import { recordAnswer, requestContextOf, undoAfterFault } from '../http/request-context';
import { Family } from './family';
import { renderSuccess, successCodeOf } from './render';
import { applyRenames, responseRenamesOf } from './response-renames';

type Handler = (...args: unknown[]) => unknown;

/**
 * Wraps every route handler of a controller so that what it returns is answered in `family`'s
 * envelope. This was a Nest interceptor; an interceptor puts each request through an rxjs pipeline
 * (about a tenth of a heartbeat's CPU), while the wrapper is one `await`. Failures, guards' included,
 * are rendered by the global EnvelopeExceptionFilter; a platform fault first gives back what the
 * request consumed (quota units). Client families answer 200 on success whatever the method (Nest
 * would pick 201 for POST); the admin API keeps each route's own status.
 */
export function answerInEnvelope(family: Family): ClassDecorator {
  return (controller) => {
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      if (name === 'constructor') continue; // the class itself carries the controller's path
      const original = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
      if (typeof original !== 'function' || Reflect.getMetadata(PATH_METADATA, original) === undefined) continue;
      const wrapped = envelopeHandler(family, original as Handler);
      // Nest and the OpenAPI document read a route's metadata from the handler function itself.
      for (const key of Reflect.getOwnMetadataKeys(original)) Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, original), wrapped);
      Object.defineProperty(wrapped, 'name', { value: (original as Handler).name });
      const descriptor = { value: wrapped, writable: true, enumerable: false, configurable: true };
      if (family !== 'admin') HttpCode(200)(prototype, name, descriptor);
      Object.defineProperty(prototype, name, descriptor);
    }
  };
}

function envelopeHandler(family: Family, handler: Handler): Handler {
  return async function envelopeAnswer(this: unknown, ...args: unknown[]): Promise<unknown> {
    let reply: unknown;
    try {
      reply = await handler.apply(this, args);
    } catch (error) {
      if (classifyError(error).fault) await undoAfterFault(undefined);
      throw error;
    }
    // A file download answers its bytes, not an envelope.
    if (reply instanceof StreamableFile) return reply;
    const context = requestContextOf(undefined);
    recordAnswer(undefined, successCodeOf(family, reply), false);
    return applyRenames(renderSuccess(family, reply, context.requestId), responseRenamesOf(undefined));
  };
}
