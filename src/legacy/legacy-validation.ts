import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { LegacyFields } from './legacy-fields';

/**
 * Validates an aggregate action's fields with the same DTO rules as the dedicated routes (the
 * aggregate reads its fields after decryption, so the route's ValidationPipe cannot see them).
 */
export async function validatedFields<T extends object>(type: new () => T, fields: LegacyFields): Promise<T> {
  const instance = plainToInstance(type, fields);
  const errors = await validate(instance, { whitelist: true });
  if (errors.length > 0) {
    const details = errors.flatMap((e) => Object.values(e.constraints ?? { [e.property]: `${e.property} is invalid` }));
    throw new ServiceError(ErrorCode.BAD_REQUEST, details[0], { details });
  }
  return instance;
}
