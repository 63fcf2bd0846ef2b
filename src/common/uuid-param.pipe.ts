import { Injectable, PipeTransform } from '@nestjs/common';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID names nothing: 404, like an id that does not exist. */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) throw new ServiceError(ErrorCode.NOT_FOUND);
    return value.toLowerCase();
  }
}
