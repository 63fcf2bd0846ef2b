import { inOneWindow } from './support/failure-window';

/** The support helper that lets failure-limit tests run at any moment of a clock minute. */
describe('inOneWindow', () => {
  afterEach(() => jest.restoreAllMocks());

  const at = (ms: number) => jest.spyOn(Date, 'now').mockReturnValue(ms);

  it('runs a passing scenario once', async () => {
    const scenario = jest.fn(async () => 'ok');
    await expect(inOneWindow(scenario)).resolves.toBe('ok');
    expect(scenario).toHaveBeenCalledTimes(1);
  });

  it('runs a failing scenario once more, at once, when a window boundary passed while it ran', async () => {
    at(59_500);
    const scenario = jest.fn(async () => {
      if (scenario.mock.calls.length === 1) {
        at(60_200); // the count restarted halfway
        throw new Error('expected 429');
      }
      return 'ok';
    });
    await expect(inOneWindow(scenario)).resolves.toBe('ok');
    expect(scenario).toHaveBeenCalledTimes(2);
  });

  it('lets a failure inside one window stand, and a second failure after a boundary too', async () => {
    at(1_000);
    const inside = jest.fn(async () => Promise.reject(new Error('real failure')));
    await expect(inOneWindow(inside)).rejects.toThrow('real failure');
    expect(inside).toHaveBeenCalledTimes(1);

    at(59_900);
    const twice = jest.fn(async () => {
      at(60_100);
      throw new Error('still failing');
    });
    await expect(inOneWindow(twice)).rejects.toThrow('still failing');
    expect(twice).toHaveBeenCalledTimes(2);
  });
});
