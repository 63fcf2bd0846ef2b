import { ApiKeyAuthenticator } from './api-keys/api-key-authenticator';
import { newAdminSessionToken } from './admin-session-token';

describe('newAdminSessionToken', () => {
  it('draws again while a token starts like an API key, so the admin routes never take a session for a key', () => {
    const draws = ['ck_Zt2v9', 'ck_0Qw', 'Ck_mixed-case-is-not-a-key'];
    const token = newAdminSessionToken(() => draws.shift()!);
    expect(token).toBe('Ck_mixed-case-is-not-a-key');
    expect(ApiKeyAuthenticator.looksLikeKey(token)).toBe(false);
    expect(draws).toEqual([]);
  });

  it('keeps the first draw otherwise, and draws 32 random bytes in base64url by default', () => {
    const draws = ['ck-is-not-the-prefix', 'never-drawn'];
    expect(newAdminSessionToken(() => draws.shift()!)).toBe('ck-is-not-the-prefix');
    expect(draws).toEqual(['never-drawn']);
    expect(newAdminSessionToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
