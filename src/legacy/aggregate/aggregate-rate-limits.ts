import { byCard, byProgram, byProgramUser } from '../../access/rate-keys';
import { fieldOf } from '../../http/body-field';
import type { RateKeyOf, RouteClassOf } from '../../http/throttling/route-rate.guard';
import { canonicalAction } from './legacy-actions';

/** The legacy aggregate's actions that belong to a limited route class, by their plain `api` field. */
export const aggregateRouteClass: RouteClassOf = (request) => {
  switch (canonicalAction(fieldOf(request, 'api'))) {
    case 'user_register':
      return 'register';
    case 'user_login':
      return 'sign-in';
    case 'card_unbind':
      return 'unbind';
    default:
      return null;
  }
};

/** The aggregate's key for its class: the program for registrations, the account or the card otherwise. */
export const aggregateKey: RateKeyOf = (request) => {
  const routeClass = aggregateRouteClass(request);
  return routeClass === 'register' ? byProgram(request) : routeClass === 'sign-in' ? byProgramUser(request) : byCard(request);
};
