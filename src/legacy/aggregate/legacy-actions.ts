import { InterfaceName } from '../../platform/interface-names';

/** The canonical aggregate actions (spec, legacy routes); each is the interface of the same name. */
export const LEGACY_ACTIONS = [
  'card_login',
  'card_unbind',
  'user_login',
  'user_register',
  'announcement',
  'app_config',
  'get_file',
  'app_profile',
] as const;

export type LegacyAction = (typeof LEGACY_ACTIONS)[number] & InterfaceName;

/** Older names (decisions §10): an alias is its canonical action, with its permission and quota. */
export const LEGACY_ACTION_ALIASES: Readonly<Record<string, LegacyAction>> = {
  kmlogon: 'card_login',
  kmunmachine: 'card_unbind',
  unbind_machine: 'card_unbind',
  userlogin: 'user_login',
  userreg: 'user_register',
  notice: 'announcement',
  ini: 'app_config',
  getfile: 'get_file',
  appinfo: 'app_profile',
};

/** The actions that need the MD5 parameter signature (decisions §3), aliases included. */
export const MD5_SIGNED_ACTIONS: ReadonlySet<LegacyAction> = new Set<LegacyAction>([
  'card_login',
  'card_unbind',
  'user_login',
  'user_register',
]);

/** The canonical action an `api` value names (exact, case-sensitive), or null. */
export function canonicalAction(api: string | undefined): LegacyAction | null {
  if (!api) return null;
  if ((LEGACY_ACTIONS as readonly string[]).includes(api)) return api as LegacyAction;
  return Object.prototype.hasOwnProperty.call(LEGACY_ACTION_ALIASES, api) ? LEGACY_ACTION_ALIASES[api] : null;
}
