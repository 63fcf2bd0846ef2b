import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ClientCall, ClientFamily, establishCall } from '../access/client-call';
import { ClientProgramDirectory } from '../access/client-program';
import { setResponseRenames } from '../http/envelope/response-renames';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { requestContextOf } from '../http/request-context';
import { SharedStore } from '../core/store/shared-store';
import { ConnectLoginDto } from './connect.dto';
import { ClientCustomization, CustomizationService } from './customization/customization.service';

/** A Connect nonce is refused when it comes again within this window (spec). */
const NONCE_WINDOW_SECONDS = 60;

export interface ConnectRequestContext {
  call: ClientCall;
  customization: ClientCustomization | null;
}

const CONNECT_CONTEXT = Symbol.for('cardkey.connectContext');

/** The login form's own rules (ConnectLoginDto), checked here because guards run before pipes. */
function isWellFormed(body: unknown): boolean {
  return validateSync(plainToInstance(ConnectLoginDto, body ?? {}), { whitelist: true }).length === 0;
}

/**
 * Connect's authentication, as the HMAC guard is V3's: resolves the program of /connect/{program_id}
 * before anything else and installs its field renames (every answer of the request, failures
 * included, uses the owner's names), then claims the optional nonce once per program for 60 s.
 * A malformed form claims nothing (its validation answers it, and the client may send the nonce
 * again with the form corrected).
 * Connect is form-encoded (spec): the input boundary refuses any other body before this guard runs.
 */
@Injectable()
export class ConnectProgramGuard implements CanActivate {
  constructor(
    private readonly directory: ClientProgramDirectory,
    private readonly customizations: CustomizationService,
    private readonly store: SharedStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const requestContext = requestContextOf(request);
    const program = await this.directory.byProgramId(String(request.params?.programId ?? ''), requestContext);
    const customization = await this.customizations.clientCustomization(program.project, requestContext);
    if (customization) setResponseRenames(request, customization.fieldNames);
    const nonce: unknown = request.body?.nonce;
    if (typeof nonce === 'string' && isWellFormed(request.body)) {
      if (!(await this.store.claim(`connect-nonce:${program.project.id}:${nonce}`, NONCE_WINDOW_SECONDS))) {
        throw new ServiceError(ErrorCode.NONCE_REPLAYED);
      }
    }
    request[CONNECT_CONTEXT] = {
      call: establishCall(request, program, 'connect'),
      customization,
    } satisfies ConnectRequestContext;
    return true;
  }
}

/** Connect routes: no signature (decisions §3); replay protection through the optional nonce. */
export const ConnectClient = () =>
  applyDecorators(ClientFamily('connect'), DeclareAuthScheme('none'), UseGuards(ConnectProgramGuard));

export const ConnectContext = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ConnectRequestContext => ctx.switchToHttp().getRequest()[CONNECT_CONTEXT],
);
