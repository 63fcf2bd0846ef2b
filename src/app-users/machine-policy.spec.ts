import { decideMachine, sessionFitsBinding } from './machine-policy';

describe('program-user machine policies', () => {
  it('rebind: the login machine becomes the binding and the other sessions end', () => {
    expect(decideMachine('rebind', null, 'b')).toEqual({ bound: 'b', changed: true, revokeOthers: true, answered: 'b' });
    expect(decideMachine('rebind', 'a', 'b')).toEqual({ bound: 'b', changed: true, revokeOthers: true, answered: 'b' });
    expect(decideMachine('rebind', 'b', 'b')).toEqual({ bound: 'b', changed: false, revokeOthers: true, answered: 'b' });
  });

  it('locked: binds the first machine, keeps it, refuses any other', () => {
    expect(decideMachine('locked', null, 'a')).toEqual({ bound: 'a', changed: true, revokeOthers: false, answered: 'a' });
    expect(decideMachine('locked', 'a', 'a')).toEqual({ bound: 'a', changed: false, revokeOthers: false, answered: 'a' });
    expect(decideMachine('locked', 'a', 'b')).toBeNull();
    expect(decideMachine('locked', 'a', 'A')).toBeNull();
  });

  it('free: binds nothing and answers the login machine', () => {
    expect(decideMachine('free', null, 'a')).toEqual({ bound: null, changed: false, revokeOthers: false, answered: 'a' });
    expect(decideMachine('free', 'old', 'a')).toEqual({ bound: 'old', changed: false, revokeOthers: false, answered: 'a' });
  });

  it('a session fits its binding only on the bound machine, except under free', () => {
    expect(sessionFitsBinding('rebind', 'a', 'a')).toBe(true);
    expect(sessionFitsBinding('rebind', 'b', 'a')).toBe(false);
    expect(sessionFitsBinding('locked', null, 'a')).toBe(false);
    expect(sessionFitsBinding('free', null, 'a')).toBe(true);
    expect(sessionFitsBinding('free', 'b', 'a')).toBe(true);
  });
});
