import { SerialRounds } from './serial-rounds';

describe('SerialRounds', () => {
  /** A round that waits until the test lets it end, counting how many ran and the most at once. */
  function rounds() {
    let ends: Array<() => void> = [];
    const seen = { started: 0, atOnce: 0, now: 0, failures: [] as string[] };
    const runner = new SerialRounds(
      () =>
        new Promise<void>((resolve) => {
          seen.started += 1;
          seen.now += 1;
          seen.atOnce = Math.max(seen.atOnce, seen.now);
          ends.push(() => {
            seen.now -= 1;
            resolve();
          });
        }),
      (error) => seen.failures.push(error.message),
    );
    const endAll = async () => {
      const current = ends;
      ends = [];
      current.forEach((end) => end());
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { runner, seen, endAll };
  }

  it('runs one round at a time, and once more after it however many kicks came meanwhile', async () => {
    const { runner, seen, endAll } = rounds();
    runner.kick();
    runner.kick();
    runner.kick();
    expect(seen.started).toBe(1);
    await endAll();
    expect(seen.started).toBe(2);
    await endAll();
    expect(seen.started).toBe(2);
    expect(seen.atOnce).toBe(1);
  });

  it('starts nothing once stopped, and its stop waits for the round under way', async () => {
    const { runner, seen, endAll } = rounds();
    runner.kick();
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    runner.kick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    await endAll();
    await stopping;
    expect(stopped).toBe(true);
    expect(runner.isStopped).toBe(true);
    expect(seen.started).toBe(1);
  });

  it("hands a failed round's error to its handler and goes on with the next kick", async () => {
    let calls = 0;
    const failures: string[] = [];
    const runner = new SerialRounds(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database gone');
      },
      (error) => failures.push(error.message),
    );
    runner.kick();
    await new Promise((resolve) => setImmediate(resolve));
    runner.kick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual(['database gone']);
    expect(calls).toBe(2);
  });
});
