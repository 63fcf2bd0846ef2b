import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ClientFamily, declaredFamily, establishCall } from '../access/client-call';
import { ClientProgramDirectory } from '../access/client-program';
import { unixSeconds } from '../common/time';
import { SecretBox } from '../core/crypto/secret-box';
import { pathOf } from '../http/envelope/family';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { AcceptsBody } from '../http/content-type';
import { SharedStore } from '../core/store/shared-store';
import {
  HMAC_NONCE_PATTERN,
  NONCE_MEMORY_SECONDS,
  SIGNATURE_HEADERS,
  SIGNATURE_WINDOW_SECONDS,
  signatureMatches,
} from './hmac-signature';
import { requestContextOf } from '../http/request-context';

/**
 * V3 and SDK authentication, in the order of decisions §3: content type (checked by the input
 * boundary, which runs first), HTTPS in production (§22: the controller's `RequiresHttps`, whose
 * guard runs before a route's own), then the `app` rules (missing, only inside `data`, a `data`
 * ciphertext, an internal key) before anything is decrypted or looked up, then program,
 * signature, timestamp and a nonce claimed once per program for 600 s in the shared store (the
 * timestamp window on both sides of now).
 */
@Injectable()
export class HmacGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly directory: ClientProgramDirectory,
    private readonly box: SecretBox,
    private readonly store: SharedStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest();
    const body = (request.body ?? {}) as Record<string, unknown>;
    // `app` only inside `data` is APP_REQUIRED; `app` beside a `data` ciphertext is refused too.
    if (typeof body.app === 'string' && body.app.trim() && body.data !== undefined)
      throw new ServiceError(ErrorCode.CIPHERTEXT_NOT_ALLOWED);
    const program = await this.directory.byAppField(body.app, requestContextOf(request));

    const header = (name: string) => (typeof request.headers[name] === 'string' ? (request.headers[name] as string) : '');
    const timestamp = header(SIGNATURE_HEADERS.timestamp);
    const nonce = header(SIGNATURE_HEADERS.nonce);
    const signature = header(SIGNATURE_HEADERS.signature);
    const rawBody: Buffer | undefined = request.rawBody ?? request.raw?.rawBody;
    const parts = {
      method: request.method,
      path: pathOf(request.originalUrl ?? request.url),
      timestamp,
      nonce,
      rawBody: rawBody ?? '',
    };
    if (!signature || !signatureMatches(this.box.decrypt(program.project.apiSecretEnc), parts, signature)) {
      throw new ServiceError(ErrorCode.SIGNATURE_INVALID);
    }
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(unixSeconds() - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) {
      throw new ServiceError(ErrorCode.TIMESTAMP_OUT_OF_WINDOW);
    }
    if (!HMAC_NONCE_PATTERN.test(nonce))
      throw new ServiceError(ErrorCode.BAD_REQUEST, 'X-Svc-Nonce must be 8-96 of [A-Za-z0-9_.:-]');
    if (!(await this.store.claim(`hmac-nonce:${program.project.id}:${nonce}`, NONCE_MEMORY_SECONDS))) {
      throw new ServiceError(ErrorCode.NONCE_REPLAYED);
    }
    establishCall(request, program, declaredFamily(this.reflector, context));
    return true;
  }
}

const hmacSigned = (body: 'form' | 'json') => applyDecorators(DeclareAuthScheme('hmac'), AcceptsBody(body), UseGuards(HmacGuard));

/** An HTTP V3 route: HMAC-signed, form-encoded; the handler reads the call with `@Caller()`. */
export const V3Signed = () => applyDecorators(ClientFamily('v3'), hmacSigned('form'));

/** An SDK v1 route: HMAC-signed JSON; the handler reads the call with `@Caller()`. */
export const SdkSigned = () => applyDecorators(ClientFamily('sdk'), hmacSigned('json'));
