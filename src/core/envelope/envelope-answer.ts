import { HttpCode, Req, StreamableFile } from '@nestjs/common';
import { PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
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
 * would pick 201 for POST); the admin API keeps each route's own status. The wrapper asks Nest for
 * the request as one more argument after the handler's own (`@Req()`), for its context.
 */
export function answerInEnvelope(family: Family): ClassDecorator {
  return (controller) => {
    const prototype = controller.prototype as Record<string, unknown>;
    for (const [name, original] of methodsOf(prototype)) {
      if (Reflect.getMetadata(PATH_METADATA, original) === undefined) continue;
      const wrapped = envelopeHandler(family, original, requestArgument(controller, prototype, name, original));
      // Nest and the OpenAPI document read a route's metadata from the handler function itself.
      for (const key of Reflect.getOwnMetadataKeys(original)) Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, original), wrapped);
      Object.defineProperty(wrapped, 'name', { value: original.name });
      const descriptor = { value: wrapped, writable: true, enumerable: false, configurable: true };
      if (family !== 'admin') HttpCode(200)(prototype, name, descriptor);
      Object.defineProperty(prototype, name, descriptor);
    }
  };
}

/** A controller's methods, inherited ones too (a route is wrapped on the controller's own prototype). */
function methodsOf(prototype: object): Map<string, Handler> {
  const methods = new Map<string, Handler>();
  for (let level = prototype; level !== Object.prototype && level !== null; level = Object.getPrototypeOf(level) as object) {
    for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(level))) {
      if (name !== 'constructor' && !methods.has(name) && typeof descriptor.value === 'function') methods.set(name, descriptor.value as Handler);
    }
  }
  return methods;
}

/**
 * Declares the request as the argument after the last one the handler takes (its own or one its
 * parameter decorators fill), and returns that argument's index.
 */
function requestArgument(controller: object, prototype: object, name: string, handler: Handler): number {
  const declared = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { index: number }>;
  const index = Math.max(handler.length - 1, ...Object.values(declared).map((arg) => arg.index)) + 1;
  Req()(prototype, name, index);
  return index;
}

function envelopeHandler(family: Family, handler: Handler, requestIndex: number): Handler {
  return async function envelopeAnswer(this: unknown, ...args: unknown[]): Promise<unknown> {
    const request = args[requestIndex];
    let reply: unknown;
    try {
      reply = await handler.apply(this, args.slice(0, requestIndex));
    } catch (error) {
      if (classifyError(error).fault) await undoAfterFault(request);
      throw error;
    }
    // A file download answers its bytes, not an envelope.
    if (reply instanceof StreamableFile) return reply;
    const context = requestContextOf(request);
    recordAnswer(request, successCodeOf(family, reply), false);
    return applyRenames(renderSuccess(family, reply, context.requestId), responseRenamesOf(request));
  };
}
