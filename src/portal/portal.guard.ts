import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ClientFamily, establishCall } from '../access/client-call';
import { ClientProgram, ClientProgramDirectory } from '../access/client-program';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { DeclareAuthScheme } from '../core/http/auth-scheme';
import { AcceptsBody } from '../core/http/content-type';
import { requestContextOf } from '../core/http/request-context';

/**
 * The card-holder portal's calls (decisions §14) are unsigned: the card key is the holder's proof.
 * A program that does not exist, or whose portal is switched off, answers CARD_INVALID like a
 * wrong key, so the portal never tells a guesser more than that.
 */
@Injectable()
export class PortalGuard implements CanActivate {
  constructor(private readonly directory: ClientProgramDirectory) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    let program: ClientProgram;
    try {
      program = await this.directory.byProgramId(String(request.body?.program_id ?? ''), requestContextOf(request));
    } catch (error) {
      if (error instanceof ServiceError && error.code === ErrorCode.PROGRAM_NOT_FOUND) throw new ServiceError(ErrorCode.CARD_INVALID);
      throw error;
    }
    if (!program.project.portalEnabled) throw new ServiceError(ErrorCode.CARD_INVALID);
    establishCall(request, program, 'portal');
    return true;
  }
}

/** A portal route: unsigned JSON with `program_id` and `card_key`. */
export const PortalClient = () => applyDecorators(ClientFamily('portal'), DeclareAuthScheme('none'), AcceptsBody('json'), UseGuards(PortalGuard));
