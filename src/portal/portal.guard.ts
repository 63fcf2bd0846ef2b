import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ClientFamily, establishCall } from '../access/client-call';
import { ClientProgram, ClientProgramDirectory } from '../access/client-program';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { AcceptsBody } from '../http/content-type';
import { requestContextOf } from '../http/request-context';
import { PortalLimits } from './portal-limits';

/**
 * The card-holder portal's calls (decisions §14) are unsigned: the card key is the holder's proof.
 * A program that does not exist, or whose portal is switched off, answers like a wrong key and
 * counts as one (CARD_INVALID, then RATE_LIMITED), and no portal answer is signed, so the portal
 * never tells a guesser whether a program exists (decisions §23).
 */
@Injectable()
export class PortalGuard implements CanActivate {
  constructor(
    private readonly directory: ClientProgramDirectory,
    private readonly limits: PortalLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const requestContext = requestContextOf(request);
    let program: ClientProgram | null = null;
    try {
      program = await this.directory.unsignedByProgramId(String(request.body?.program_id ?? ''), requestContext);
    } catch (error) {
      if (!(error instanceof ServiceError && error.code === ErrorCode.PROGRAM_NOT_FOUND)) throw error;
    }
    if (!program?.project.portalEnabled) return this.limits.noProgram(requestContext.clientIp);
    establishCall(request, program, 'portal');
    return true;
  }
}

/** A portal route: unsigned JSON with `program_id` and `card_key`. */
export const PortalClient = () =>
  applyDecorators(ClientFamily('portal'), DeclareAuthScheme('none'), AcceptsBody('json'), UseGuards(PortalGuard));
