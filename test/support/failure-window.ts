import { failureWindow } from '../../src/core/throttling/failure-limiter';

/**
 * Failure limits count per fixed clock minute (src/core/throttling/failure-limiter.ts): a test of a
 * limit that happens to cross into the next minute sees its count restart halfway. Instead of
 * waiting for a fresh minute, a test runs its scenario through this: when the scenario fails and
 * a window boundary passed while it ran, it runs once more, at once, inside the new window (a
 * scenario takes a few seconds; it cannot meet a second boundary). So the scenario must make its
 * own fresh subjects each time it runs: accounts, projects, client addresses.
 */
export async function inOneWindow<T>(scenario: () => Promise<T>): Promise<T> {
  const start = failureWindow(Date.now()).index;
  try {
    return await scenario();
  } catch (error) {
    if (failureWindow(Date.now()).index === start) throw error;
    return scenario();
  }
}

/** `it`, with the test run through inOneWindow: the test makes its own fresh subjects. */
export function itInOneWindow(name: string, fn: () => Promise<void>, timeout?: number): void {
  it(name, () => inOneWindow(fn), timeout);
}
