import { ArgumentsHost, Catch, ExceptionFilter, Injectable, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { classifyError } from '../../core/errors/to-service-error';
import { recordAnswer, requestIdOf } from '../request-context';
import { RouteRegistry } from '../route-registry';
import { JsonLogger } from '../../core/logging/json-logger';
import { familyOfPath, pathOf } from './family';
import { renderFailure } from './render';
import { applyRenames, responseRenamesOf } from './response-renames';

/**
 * Renders every failure in the envelope of the path's family, with the catalog's HTTP status.
 * Unmatched routes (the router's NotFoundException; the app's own code throws ServiceError, never
 * NotFoundException) become JSON 404, or 405 with Allow when the path exists for other methods.
 * Platform faults are logged once with their stack and error id; the client sees only the id.
 */
@Catch()
@Injectable()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly routes: RouteRegistry,
    private readonly logger: JsonLogger,
  ) {}

  catch(thrown: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest();
    const res = http.getResponse();
    const adapter = this.adapterHost.httpAdapter;
    const method = String(adapter.getRequestMethod(req)).toUpperCase();
    const path = pathOf(adapter.getRequestUrl(req));

    const error =
      thrown instanceof NotFoundException ? this.unmatched(method, path) : this.classify(thrown, method, path, requestIdOf(req));
    for (const [name, value] of Object.entries(error.headers ?? {})) adapter.setHeader(res, name, value);
    recordAnswer(req, error.code, true, error);
    const body = applyRenames(renderFailure(familyOfPath(path), error, requestIdOf(req)), responseRenamesOf(req));
    adapter.reply(res, body, error.httpStatus);
  }

  private classify(thrown: unknown, method: string, path: string, requestId: string): ServiceError {
    const { error, fault } = classifyError(thrown);
    if (fault) {
      const cause = (error.cause ?? thrown) as Error;
      this.logger.entry('error', 'unhandled fault', {
        request_id: requestId,
        error_id: error.errorId,
        method,
        path,
        error: String(cause?.message ?? cause),
        stack: cause?.stack,
      });
    }
    return error;
  }

  private unmatched(method: string, path: string): ServiceError {
    const allowed = this.routes.allowedMethods(path);
    if (allowed.length === 0) return new ServiceError(ErrorCode.NOT_FOUND, `No route ${method} ${path}`);
    return new ServiceError(ErrorCode.METHOD_NOT_ALLOWED, `${method} is not allowed on ${path}; use ${allowed.join(', ')}`, {
      headers: { Allow: allowed.join(', ') },
    });
  }
}
