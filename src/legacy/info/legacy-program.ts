import { Injectable } from '@nestjs/common';
import { ClientProgram, ClientProgramDirectory } from '../../access/client-program';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';

const UUID_LIKE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * The `app` rules of the unsigned legacy routes: missing (or not a single plain field) →
 * APP_REQUIRED, an internal project key → INTERNAL_KEY_NOT_ACCEPTED, anything that names no
 * program → PROGRAM_NOT_FOUND.
 */
@Injectable()
export class LegacyProgramResolver {
  constructor(private readonly directory: ClientProgramDirectory) {}

  resolve(fields: Record<string, unknown> | undefined): Promise<ClientProgram> {
    const app = typeof fields?.app === 'string' ? fields.app.trim() : '';
    if (!app) throw new ServiceError(ErrorCode.APP_REQUIRED);
    if (UUID_LIKE.test(app)) throw new ServiceError(ErrorCode.INTERNAL_KEY_NOT_ACCEPTED);
    return this.directory.byProgramId(app);
  }
}
