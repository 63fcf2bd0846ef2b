/** Canonical interface names (decisions §7). */
export const INTERFACE_NAMES = [
  'card_login',
  'card_unbind',
  'card_heartbeat',
  'user_register',
  'user_login',
  'user_heartbeat',
  'announcement',
  'app_config',
  'get_file',
  'app_profile',
  'version_check',
  'state_check',
  'paycheck',
  'licence_verify',
  // decisions §13, §14
  'card_info',
  'card_topup',
  // decisions §21
  'card_trial',
] as const;

export type InterfaceName = (typeof INTERFACE_NAMES)[number];

export function isInterfaceName(value: string): value is InterfaceName {
  return (INTERFACE_NAMES as readonly string[]).includes(value);
}
