import { decoyHash, hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
  let stored: string;

  beforeAll(async () => {
    stored = await hashPassword('correct horse battery');
  });

  it('hashes with argon2id, never keeping the password', () => {
    expect(stored.startsWith('$argon2id$')).toBe(true);
    expect(stored).not.toContain('correct horse battery');
  });

  it('salts, so the same password hashes differently', async () => {
    expect(await hashPassword('correct horse battery')).not.toBe(stored);
  });

  it('verifies the right password', async () => {
    await expect(verifyPassword(stored, 'correct horse battery')).resolves.toBe(true);
  });

  it.each(['wrong', 'correct horse battery ', 'Correct horse battery', ''])('rejects %p', async (attempt) => {
    await expect(verifyPassword(stored, attempt)).resolves.toBe(false);
  });

  it.each(['garbage', '', '$argon2id$v=19$broken'])('returns false on the stored hash %p instead of throwing', async (bad) => {
    await expect(verifyPassword(bad, 'anything')).resolves.toBe(false);
  });

  it('offers a stable argon2id decoy that no ordinary password matches', async () => {
    const decoy = await decoyHash();
    expect(decoy.startsWith('$argon2id$')).toBe(true);
    await expect(decoyHash()).resolves.toBe(decoy);
    await expect(verifyPassword(decoy, 'correct horse battery')).resolves.toBe(false);
  });
});
