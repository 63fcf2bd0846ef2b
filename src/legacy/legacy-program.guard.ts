import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ClientFamily, establishCall } from '../access/client-call';
import { ClientProgramDirectory } from '../access/client-program';
import { SecretBox } from '../core/crypto/secret-box';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { plainFields } from './legacy-fields';
import { verifyMd5Signature } from './signing/md5-signature';
import { requestContextOf } from '../http/request-context';

const MD5_REQUIRED = 'cardkey:legacy-md5';

/**
 * The program of a legacy route, in the order of decisions §3 (the input boundary has checked the
 * form content type already; a GET or HEAD reads the query string): the `app` rules, the program, then — on MD5 routes — the parameter signature over
 * every field and its timestamp. Nothing is looked at before `app` passes.
 */
@Injectable()
export class LegacyProgramGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly directory: ClientProgramDirectory,
    private readonly box: SecretBox,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    // HEAD is answered as GET is (its query, not a body), only without the body.
    const method = String(request.method).toUpperCase();
    const fields = plainFields(method === 'GET' || method === 'HEAD' ? request.query : request.body);
    const program = await this.directory.byAppField(fields.app, requestContextOf(request));
    if (this.reflector.getAllAndOverride<boolean>(MD5_REQUIRED, [context.getHandler(), context.getClass()])) {
      verifyMd5Signature(fields, this.box.decrypt(program.project.legacySecretEnc));
    }
    establishCall(request, program, 'legacy');
    return true;
  }
}

/** An unsigned legacy route: `app` is a plain field (or query parameter on GET). */
export const LegacyClient = () =>
  applyDecorators(ClientFamily('legacy'), DeclareAuthScheme('none'), UseGuards(LegacyProgramGuard));

/** A legacy route that needs the MD5 parameter signature (`t`, `sign`; decisions §3). */
export const Md5Signed = () =>
  applyDecorators(
    ClientFamily('legacy'),
    DeclareAuthScheme('md5'),
    SetMetadata(MD5_REQUIRED, true),
    UseGuards(LegacyProgramGuard),
  );

/**
 * The aggregate entry: this guard settles only the content type, `app` and the program; the entry
 * itself opens a transport-encrypted `data` and checks the MD5 signature of the signed actions.
 */
export const LegacyAggregateClient = () =>
  applyDecorators(ClientFamily('legacy'), DeclareAuthScheme('md5'), UseGuards(LegacyProgramGuard));
