import { api } from '../api/client';
import { unwrap } from '../api/errors';
import { type AdminSession, sessionFromAnswer } from '../api/session';

export interface Credentials {
  username: string;
  password: string;
}

/** The first step's answer for an account with two-factor sign-in: the code step trades it for the token. */
export interface SignInChallenge {
  challenge: string;
  username: string;
}

/** Answers the session to keep, or the challenge of an account with two-factor sign-in. */
export async function login({ username, password }: Credentials): Promise<AdminSession | SignInChallenge> {
  const answer = await unwrap(api.POST('/admin/v1/auth/login', { body: { username, password } }));
  if ('challenge' in answer) return { challenge: answer.challenge, username };
  return sessionFromAnswer(answer, username);
}

/** Trades the challenge and a code (of the app, or a recovery code) for the session. */
export async function loginWithCode(challenge: SignInChallenge, code: string): Promise<AdminSession> {
  const answer = await unwrap(
    api.POST('/admin/v1/auth/login/2fa', { body: { challenge: challenge.challenge, code: code.trim() } }),
  );
  return sessionFromAnswer(answer, challenge.username);
}
