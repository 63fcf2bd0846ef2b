import { hash, verify } from '@node-rs/argon2';

/** argon2id with the library's defaults (memory-hard); runs on the libuv pool, off the event loop. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A fixed hash to verify against when the account does not exist, so timing does not reveal it. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hash('decoy-password-for-unknown-accounts');
  return decoy;
}
