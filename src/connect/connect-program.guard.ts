import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ClientProgram, ClientProgramDirectory } from '../access/client-program';
import { DeclareAuthScheme } from '../core/http/auth-scheme';
import { setResponseRenames } from '../core/envelope/response-renames';
import { ClientCustomization, CustomizationService } from './customization/customization.service';

export interface ConnectRequestContext {
  program: ClientProgram;
  customization: ClientCustomization | null;
}

const CONNECT_CONTEXT = Symbol.for('cardkey.connectContext');

/**
 * Resolves the program of /connect/{program_id} before anything else, and installs its field
 * renames so that every answer of the request, failures included, uses the owner's names.
 * Connect is form-encoded (spec): the input boundary refuses any other body before this guard runs.
 */
@Injectable()
export class ConnectProgramGuard implements CanActivate {
  constructor(
    private readonly directory: ClientProgramDirectory,
    private readonly customizations: CustomizationService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const program = await this.directory.byProgramId(String(request.params?.programId ?? ''));
    const customization = await this.customizations.clientCustomization(program.project);
    if (customization) setResponseRenames(request, customization.fieldNames);
    request[CONNECT_CONTEXT] = { program, customization } satisfies ConnectRequestContext;
    return true;
  }
}

/** Connect routes: no signature (decisions §3); replay protection through the optional nonce. */
export const ConnectClient = () => applyDecorators(DeclareAuthScheme('none'), UseGuards(ConnectProgramGuard));

export const ConnectContext = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ConnectRequestContext => ctx.switchToHttp().getRequest()[CONNECT_CONTEXT],
);
