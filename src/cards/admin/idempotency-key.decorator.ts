import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,100}$/;
const RULE = `${IDEMPOTENCY_KEY_HEADER} must be 1-100 printable ASCII characters`;

/** The optional `Idempotency-Key` request header: undefined when absent, 400 when malformed. */
export const IdempotencyKey = createParamDecorator((_: unknown, ctx: ExecutionContext): string | undefined => {
  const value: unknown = ctx.switchToHttp().getRequest().headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value))
    throw new ServiceError(ErrorCode.BAD_REQUEST, RULE, { details: [RULE] });
  return value;
});
