import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ClientProgram, ClientProgramDirectory } from '../access/client-program';
import { DeclareAuthScheme } from '../core/http/auth-scheme';
import { FORM_CONTENT_TYPE, requireContentType } from '../core/http/content-type';

const COMPAT_PROGRAM = Symbol.for('cardkey.compatProgram');

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
    requireContentType(request, FORM_CONTENT_TYPE);
    request[COMPAT_PROGRAM] = await this.directory.byAppField(request.body?.app);
    return true;
  }
}

export const CompatProgramClient = () => applyDecorators(DeclareAuthScheme('none'), UseGuards(CompatProgramGuard));

export const CompatProgram = createParamDecorator((_: unknown, ctx: ExecutionContext): ClientProgram => ctx.switchToHttp().getRequest()[COMPAT_PROGRAM]);
