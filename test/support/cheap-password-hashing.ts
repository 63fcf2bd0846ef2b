/**
 * E2e tests hash and verify passwords all the time (every admin sign-in, every author, every
 * program user), and argon2id at the service's cost (19 MiB, 2 passes) takes 30-270 ms of CPU each
 * on the CI host. Here the test apps hash with argon2id at its lowest cost instead: the same
 * algorithm and format (verify reads the cost from each hash), so every rule about passwords is
 * still tested, at about 1 ms. The service's own cost is tested in src/core/crypto/passwords.spec.ts.
 */
jest.mock('@node-rs/argon2', () => {
  const real = jest.requireActual<typeof import('@node-rs/argon2')>('@node-rs/argon2');
  const cheapest = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
  return {
    ...real,
    hash: (password: string | Buffer, options?: object, signal?: AbortSignal) =>
      real.hash(password, { ...options, ...cheapest }, signal),
  };
});
