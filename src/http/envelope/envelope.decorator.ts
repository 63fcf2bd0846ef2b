import { applyDecorators, SetMetadata, UseInterceptors, UsePipes } from '@nestjs/common';
import { PlannedValidationPipe } from '../planned-validation.pipe';
import { ENVELOPE_INTERCEPTORS } from './envelope.interceptors';
import { Family } from './family';

export const ENVELOPE_FAMILY = 'cardkey:envelope-family';

/** The admin API refuses unknown fields; client families ignore extras that old clients send. */
const STRICT_VALIDATION = new PlannedValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true });
const LENIENT_VALIDATION = new PlannedValidationPipe({ transform: true, whitelist: true });

/**
 * Marks a controller as answering in one family's envelope, with that family's validation policy;
 * a client family's controller gets its family's interceptor (envelope.interceptors.ts), which renders
 * its successes. Admin successes are the handler's own answer: no interceptor. Failures (guards' too,
 * which never reach a handler) are rendered by the global EnvelopeExceptionFilter from the path's
 * family, which the route snapshot test keeps in agreement with this declaration.
 */
export const Envelope = (family: Family) =>
  family === 'admin'
    ? applyDecorators(SetMetadata(ENVELOPE_FAMILY, family), UsePipes(STRICT_VALIDATION))
    : applyDecorators(
        SetMetadata(ENVELOPE_FAMILY, family),
        UsePipes(LENIENT_VALIDATION),
        UseInterceptors(ENVELOPE_INTERCEPTORS[family]),
      );
