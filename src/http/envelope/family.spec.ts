import { familyOfPath, pathOf } from './family';

describe('familyOfPath', () => {
  it.each([
    ['/connect/48213907', 'connect'],
    ['/connect', 'connect'],
    ['/conncet/48213907', 'connect'],
    ['/api/legacy/v3/cards/login', 'standard'],
    ['/api/v1/users/login', 'standard'],
    ['/api/v1', 'standard'],
    ['/api/kmlogon', 'legacy'],
    ['/api/app-users/login', 'legacy'],
    ['/api/v1x/cards', 'legacy'],
    ['/api/legacy/v3x', 'legacy'],
    ['/admin/v1/projects', 'admin'],
    ['/connectx', 'admin'],
    ['/apix', 'admin'],
    ['/', 'admin'],
    ['/health', 'admin'],
  ])('%s → %s', (path, family) => {
    expect(familyOfPath(path)).toBe(family);
  });
});

describe('pathOf', () => {
  it.each([
    ['/api/v1/cards/login?x=1&y=2', '/api/v1/cards/login'],
    ['/connect/1?', '/connect/1'],
    ['/admin/v1/projects', '/admin/v1/projects'],
    ['/a?b?c', '/a'],
  ])('%s → %s', (url, path) => {
    expect(pathOf(url)).toBe(path);
  });

  it('lets a query string not change the family', () => {
    expect(familyOfPath(pathOf('/connectx?/connect/1'))).toBe('admin');
  });
});
