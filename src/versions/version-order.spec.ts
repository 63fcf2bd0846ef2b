import { compareVersions, parseVersion } from './version-order';

describe('compareVersions', () => {
  it.each([
    ['1.10.0', '1.2.0', 1],
    ['1.2.0', '1.10.0', -1],
    ['1.2', '1.2.0', 0],
    ['1', '1.0.0.0', 0],
    ['2.0.0', '1.99.99', 1],
    ['1.0.1', '1.0', 1],
    ['1.02', '1.2', 0],
    ['0.9.9.9', '1', -1],
    ['999999999.0', '999999998.999999999', 1],
  ])('%s vs %s → %i', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
    expect(compareVersions(b, a)).toBe(-expected || 0);
  });

  it('sorts a list numerically, not as text', () => {
    expect(['1.2.0', '1.10.0', '1.9', '0.1', '10.0', '2.0.0'].sort(compareVersions)).toEqual([
      '0.1',
      '1.2.0',
      '1.9',
      '1.10.0',
      '2.0.0',
      '10.0',
    ]);
  });

  it('refuses what is not a version', () => {
    expect(() => compareVersions('1.x', '1.0')).toThrow(/Not a version/);
  });
});

describe('parseVersion', () => {
  it.each(['1', '1.2', '1.2.3', '1.2.3.4', '0.0.0', '123456789.1'])('accepts %s', (v) => {
    expect(parseVersion(v)).toEqual(v.split('.').map(Number));
  });

  it.each(['', 'v1.2', '1.2.3.4.5', '1..2', '1.2.', '.1', '1.2-beta', ' 1.2', '1.2 ', '1234567890', '1,2', '-1'])(
    'rejects %j',
    (v) => {
      expect(parseVersion(v)).toBeNull();
    },
  );
});
