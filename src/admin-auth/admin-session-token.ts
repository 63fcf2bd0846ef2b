import { newToken } from '../core/crypto/tokens';
import { ApiKeyAuthenticator } from './api-keys/api-key-authenticator';

/**
 * A new admin session token that the admin routes cannot take for an API key. They tell the two
 * apart by the keys' `ck_` prefix alone, and one random base64url token in 64³ (262,144) starts with
 * it too: such a session was refused as an unknown key right after its sign-in. Those are drawn again.
 */
export function newAdminSessionToken(draw: () => string = newToken): string {
  for (;;) {
    const token = draw();
    if (!ApiKeyAuthenticator.looksLikeKey(token)) return token;
  }
}
