import { PipeTransform } from '@nestjs/common';
import { MAX_INT32 } from './limits';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';

const INT_ID = /^[1-9][0-9]{0,9}$/;

/**
 * A path id of an integer-keyed row (card, announcement): anything else names nothing, so the
 * resource's own "not found" (e.g. CARD_NOT_FOUND), exactly like an id that does not exist.
 * Use an instance: `@Param('cardId', new IntIdParamPipe(ErrorCode.CARD_NOT_FOUND))`.
 * (The admin ValidationPipe may already have turned a `number` parameter into a number, or NaN.)
 */
export class IntIdParamPipe implements PipeTransform<string | number, number> {
  constructor(private readonly notFound: ErrorCode) {}

  transform(value: string | number): number {
    const text = String(value);
    if (!INT_ID.test(text) || Number(text) > MAX_INT32) throw new ServiceError(this.notFound);
    return Number(text);
  }
}
