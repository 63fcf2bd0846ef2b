import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ClientProgram, ClientProgramDirectory } from '../access/client-program';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { DeclareAuthScheme } from '../core/http/auth-scheme';

const COMPAT_PROGRAM = Symbol.for('cardkey.compatProgram');
const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
const UUID_LIKE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * The program of a compatibility route (`/api/app-users/*`): form fields (decisions §10), `app` a
 * public program ID as a plain field, never an internal project key. These routes are unsigned:
 * MD5 signing is required only where decisions §3 lists it.
 */
@Injectable()
export class CompatProgramGuard implements CanActivate {
  constructor(private readonly directory: ClientProgramDirectory) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const contentType = String(request.headers?.['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (contentType !== FORM_CONTENT_TYPE) throw new ServiceError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `Send the body as ${FORM_CONTENT_TYPE}`);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const app = typeof body.app === 'string' ? body.app.trim() : '';
    if (!app) throw new ServiceError(ErrorCode.APP_REQUIRED);
    if (UUID_LIKE.test(app)) throw new ServiceError(ErrorCode.INTERNAL_KEY_NOT_ACCEPTED);
    request[COMPAT_PROGRAM] = await this.directory.byProgramId(app);
    return true;
  }
}

export const CompatProgramClient = () => applyDecorators(DeclareAuthScheme('none'), UseGuards(CompatProgramGuard));

export const CompatProgram = createParamDecorator((_: unknown, ctx: ExecutionContext): ClientProgram => ctx.switchToHttp().getRequest()[COMPAT_PROGRAM]);
