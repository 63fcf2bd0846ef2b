import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ActorNote, actorNoteOf } from '../common/audit-note';
import { requestContextOf } from '../http/request-context';

/**
 * Who is signing in, as the admin sign-in services take it: plain data built from the request by
 * the handler's parameter (`SigningIn`), so the services know nothing of the HTTP layer.
 * A sign-in notes the account it acts as on it (`noteActor`), for the audit trail of a route
 * that has no token yet.
 */
export interface SignInClient {
  /** The caller's address (request-context `clientIp`): failed sign-ins are limited per address. */
  readonly ip: string;
}

const SIGN_IN_CLIENT = Symbol.for('cardkey.signInClient');

type SignInRequest = { [SIGN_IN_CLIENT]?: SignInClient };

/** The client of a sign-in route, as a handler parameter; kept on the request for the audit trail. */
export const SigningIn = createParamDecorator((_: unknown, ctx: ExecutionContext): SignInClient => {
  const request = ctx.switchToHttp().getRequest<SignInRequest>();
  const client: SignInClient = { ip: requestContextOf(request).clientIp };
  request[SIGN_IN_CLIENT] = client;
  return client;
});

/** The account a sign-in of this request noted on its client, once known (the audit trail's who). */
export function signedInActorOf(request: unknown): ActorNote | undefined {
  const client = (request as SignInRequest | undefined)?.[SIGN_IN_CLIENT];
  return client ? actorNoteOf(client) : undefined;
}
