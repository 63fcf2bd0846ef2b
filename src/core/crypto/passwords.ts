import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

/**
 * At most one argon2 job per core at a time. Each holds a 19 MiB memory pool (the library's default
 * cost) on a libuv thread: on the default pool of 4 threads, 2 cores computed no faster but held
 * 76 MiB during a burst of program-user logins, and left no thread for file reads. The others wait
 * their turn in order.
 */
const argon2Slots = pLimit(availableParallelism());

/** argon2id with the library's defaults (memory-hard); runs on the libuv pool, off the event loop. */
export function hashPassword(password: string): Promise<string> {
  return argon2Slots(() => hash(password));
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await argon2Slots(() => verify(stored, password));
  } catch {
    return false;
  }
}

/** A fixed hash to verify against when the account does not exist, so timing does not reveal it. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword('decoy-password-for-unknown-accounts');
  return decoy;
}
