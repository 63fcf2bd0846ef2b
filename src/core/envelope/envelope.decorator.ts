import { applyDecorators, SetMetadata, UseInterceptors, UsePipes, ValidationPipe } from '@nestjs/common';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { Family } from './family';

export const ENVELOPE_FAMILY = 'cardkey:envelope-family';

/** The admin API refuses unknown fields; client families ignore extras that old clients send. */
const STRICT_VALIDATION = new ValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true });
const LENIENT_VALIDATION = new ValidationPipe({ transform: true, whitelist: true });

/**
 * Marks a controller as answering in one family's envelope, with that family's validation policy.
 * Success bodies are wrapped by the interceptor; failures (including guard failures, which never
 * reach an interceptor) are rendered by the global EnvelopeExceptionFilter from the path's family,
 * which the route snapshot test keeps in agreement with this declaration.
 */
export const Envelope = (family: Family) =>
  applyDecorators(
    SetMetadata(ENVELOPE_FAMILY, family),
    UseInterceptors(EnvelopeInterceptor),
    UsePipes(family === 'admin' ? STRICT_VALIDATION : LENIENT_VALIDATION),
  );
