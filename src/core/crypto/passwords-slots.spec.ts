import { availableParallelism } from 'node:os';

// Each argon2 job holds a 19 MiB pool: how many run at once bounds the service's memory.
let running = 0;
let mostAtOnce = 0;
jest.mock('@node-rs/argon2', () => {
  const job = async <T>(answer: T): Promise<T> => {
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    await new Promise((resolve) => setTimeout(resolve, 5));
    running -= 1;
    return answer;
  };
  return { hash: () => job('$argon2id$stub'), verify: () => job(true) };
});

import { hashPassword, verifyPassword } from './passwords';

describe('argon2 jobs', () => {
  it('run at most one per core at a time, and every caller still gets its answer', async () => {
    const cores = availableParallelism();
    const answers = await Promise.all([
      ...Array.from({ length: cores * 3 }, () => verifyPassword('$argon2id$stored', 'password')),
      ...Array.from({ length: cores * 2 }, () => hashPassword('password')),
    ]);
    expect(answers).toEqual([...Array(cores * 3).fill(true), ...Array(cores * 2).fill('$argon2id$stub')]);
    expect(mostAtOnce).toBe(cores);
  });
});
