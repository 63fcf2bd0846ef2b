import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ErrorCode } from '../core/errors/error-code';
import { ApiFailures } from '../http/openapi/api-contract';
import { StepUpGuard } from './admin-checks';

export const STEP_UP_HEADER = 'X-Svc-2fa-Code';
export const STEP_UP_WHEN = 'cardkey:step-up-when';

/** Which requests of a route need the code, when not all do (a bulk action: only its deletes). */
export type StepUpWhen = (request: { body?: unknown }) => boolean;

/**
 * A route that mints money or keys: an account with two-factor sign-in must send a fresh code in
 * `X-Svc-2fa-Code` (a header, so a route's body keeps its own contract and DELETE works too).
 * Put it on a handler of an @AdminAuth controller.
 */
export const StepUp = (when?: StepUpWhen) =>
  applyDecorators(
    SetMetadata(STEP_UP_WHEN, when),
    UseGuards(StepUpGuard),
    ApiHeader({
      name: STEP_UP_HEADER,
      required: false,
      description: 'a fresh TOTP code; required when the account has two-factor sign-in on',
    }),
    ApiFailures(ErrorCode.TWO_FACTOR_REQUIRED, ErrorCode.TWO_FACTOR_CODE_INVALID),
  );
