import { INTERFACE_NAMES } from '../../platform/interface-names';
import { canonicalAction, LEGACY_ACTIONS, MD5_SIGNED_ACTIONS } from './legacy-actions';

describe('canonicalAction', () => {
  it.each(LEGACY_ACTIONS.map((a) => [a]))('%s is itself and an interface name', (action) => {
    expect(canonicalAction(action)).toBe(action);
    expect(INTERFACE_NAMES).toContain(action);
  });

  it.each([
    ['kmlogon', 'card_login'],
    ['kmunmachine', 'card_unbind'],
    ['unbind_machine', 'card_unbind'],
    ['userlogin', 'user_login'],
    ['userreg', 'user_register'],
    ['notice', 'announcement'],
    ['ini', 'app_config'],
    ['getfile', 'get_file'],
    ['appinfo', 'app_profile'],
  ])('alias %s → %s', (alias, action) => {
    expect(canonicalAction(alias)).toBe(action);
  });

  it.each([[undefined], [''], ['KMLOGON'], ['toString'], ['__proto__'], ['verify']])('%s is no action', (api) => {
    expect(canonicalAction(api)).toBeNull();
  });

  it('signs exactly the card and user actions', () => {
    expect([...MD5_SIGNED_ACTIONS].sort()).toEqual(['card_login', 'card_unbind', 'user_login', 'user_register']);
  });
});
