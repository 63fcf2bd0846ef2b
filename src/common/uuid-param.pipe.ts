import { PipeTransform } from '@nestjs/common';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A path id that is not a UUID names nothing: the resource's own "not found" (e.g.
 * PROJECT_NOT_FOUND), exactly like an id that does not exist. Use an instance:
 * `@Param('id', new UuidParamPipe(ErrorCode.AUTHOR_NOT_FOUND))`.
 */
export class UuidParamPipe implements PipeTransform<string, string> {
  constructor(private readonly notFound: ErrorCode) {}

  transform(value: string): string {
    if (!UUID.test(value)) throw new ServiceError(this.notFound);
    return value.toLowerCase();
  }
}

/** The `:id` of every `/admin/v1/projects/:id...` route. */
export const PROJECT_ID_PIPE = new UuidParamPipe(ErrorCode.PROJECT_NOT_FOUND);
