import type { RateKeyOf } from '../http/throttling/route-rate.guard';
import { fieldOf } from '../http/body-field';
import { establishedCall } from './client-call';

/**
 * The key scopes of the client routes' request-rate limits (core/throttling/rate-limits.ts): read
 * once the family's guard has established the call, so only admitted requests count against a
 * program, an account or a card. Fields under legacy transport encryption are not readable yet:
 * such a request counts against its address only.
 */
const inProgram = (request: Record<PropertyKey, unknown>, value: string | undefined): string | undefined => {
  const call = establishedCall(request);
  return call && value !== undefined ? `${call.program.project.id}:${value}` : undefined;
};

/** Registrations: per program. */
export const byProgram: RateKeyOf = (request) => establishedCall(request)?.program.project.id;

/** Program-user sign-ins: per program and username. */
export const byProgramUser: RateKeyOf = (request) => inProgram(request, fieldOf(request, 'username'));

/** Unbinds: per program and card key (`card_key` in JSON, `kami` in legacy forms). */
export const byCard: RateKeyOf = (request) => inProgram(request, fieldOf(request, 'card_key') ?? fieldOf(request, 'kami'));
