import type { Project, Schemas } from '../../api/client';
import type { DurationUnit } from '../../components/format';

export type SettingName = keyof Schemas['UpdateProjectDto'];

/** How a setting is edited. The limits are the admin API's own (src/projects/project.dto.ts). */
export type SettingKind =
  | { type: 'text'; max: number }
  | { type: 'int'; min: number; max: number }
  /** Seconds in the API, shown and entered in `units` with one-click `presets`. */
  | {
      type: 'duration';
      min: number;
      max: number;
      units: readonly DurationUnit[];
      presets: readonly number[];
      zeroIsOff?: boolean;
    }
  /** Empty means null: "unlimited". */
  | { type: 'int-or-unlimited'; min: number; max: number }
  | { type: 'switch' }
  | { type: 'choice'; options: readonly string[] }
  | { type: 'ips' }
  /** One of the project's enabled card types; empty means null: off. */
  | { type: 'card-type' };

export interface SettingField {
  name: SettingName;
  kind: SettingKind;
  /** Entitlements: only a platform admin may change them. */
  platformAdminOnly?: boolean;
}

export interface SettingGroup {
  key: 'general' | 'cards' | 'sessions' | 'users' | 'security' | 'access' | 'entitlements';
  fields: SettingField[];
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/** Every setting a project has (decisions §7), grouped as an author thinks of them. */
export const SETTING_GROUPS: SettingGroup[] = [
  {
    key: 'general',
    fields: [
      { name: 'name', kind: { type: 'text', max: 100 } },
      { name: 'status', kind: { type: 'choice', options: ['active', 'disabled'] } },
      { name: 'verification_enabled', kind: { type: 'switch' } },
    ],
  },
  {
    key: 'cards',
    fields: [
      { name: 'device_limit', kind: { type: 'int', min: 1, max: 1000 } },
      { name: 'concurrent_limit', kind: { type: 'int-or-unlimited', min: 1, max: 1000 } },
      { name: 'seat_policy', kind: { type: 'choice', options: ['refuse', 'evict_oldest'] } },
      { name: 'unbind_enabled', kind: { type: 'switch' } },
      {
        name: 'unbind_deduct_seconds',
        kind: {
          type: 'duration',
          min: 0,
          max: 10 * 365 * DAY,
          units: ['day', 'hour', 'minute'],
          presets: [0, HOUR, DAY, 7 * DAY],
        },
      },
      { name: 'unbind_max', kind: { type: 'int-or-unlimited', min: 0, max: 100000 } },
      {
        name: 'unbind_cooldown_seconds',
        kind: {
          type: 'duration',
          min: 0,
          max: 30 * DAY,
          units: ['day', 'hour', 'minute'],
          presets: [0, HOUR, DAY, 7 * DAY],
          zeroIsOff: true,
        },
      },
      { name: 'unbind_max_per_30_days', kind: { type: 'int-or-unlimited', min: 0, max: 100000 } },
      {
        name: 'device_idle_release_seconds',
        kind: {
          type: 'duration',
          min: 0,
          max: 365 * DAY,
          units: ['day', 'hour', 'minute'],
          presets: [0, 10 * MINUTE, HOUR, DAY],
          zeroIsOff: true,
        },
      },
      { name: 'trial_card_type_id', kind: { type: 'card-type' } },
    ],
  },
  {
    key: 'sessions',
    fields: [
      {
        name: 'session_ttl_seconds',
        kind: {
          type: 'duration',
          min: 30,
          max: 30 * DAY,
          units: ['day', 'hour', 'minute', 'second'],
          presets: [5 * MINUTE, 10 * MINUTE, HOUR, DAY],
        },
      },
      {
        name: 'heartbeat_interval_seconds',
        kind: { type: 'duration', min: 5, max: DAY, units: ['hour', 'minute', 'second'], presets: [30, MINUTE, 5 * MINUTE] },
      },
      {
        name: 'offline_grace_seconds',
        kind: {
          type: 'duration',
          min: 0,
          max: 30 * DAY,
          units: ['day', 'hour'],
          presets: [0, DAY, 7 * DAY, 30 * DAY],
          zeroIsOff: true,
        },
      },
    ],
  },
  { key: 'users', fields: [{ name: 'user_machine_policy', kind: { type: 'choice', options: ['rebind', 'locked', 'free'] } }] },
  {
    key: 'security',
    fields: [
      { name: 'transport_encryption', kind: { type: 'choice', options: ['none', 'rc4', 'aes', 'aes-gcm'] } },
      { name: 'response_signing', kind: { type: 'switch' } },
      { name: 'ip_bindings', kind: { type: 'ips' } },
      { name: 'card_guess_limit_per_minute', kind: { type: 'int', min: 1, max: 10000 } },
    ],
  },
  {
    key: 'access',
    fields: [
      { name: 'connect_enabled', kind: { type: 'switch' } },
      { name: 'portal_enabled', kind: { type: 'switch' } },
    ],
  },
  {
    key: 'entitlements',
    fields: [
      { name: 'basic_package', kind: { type: 'switch' }, platformAdminOnly: true },
      { name: 'plan_level', kind: { type: 'int', min: 0, max: 1000 }, platformAdminOnly: true },
      { name: 'licence_verify', kind: { type: 'switch' }, platformAdminOnly: true },
    ],
  },
];

export type SettingValues = Partial<Pick<Project, SettingName>>;

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The PATCH body: only what changed, so a save never touches a setting the admin did not edit. */
export function changedSettings(project: Project, values: SettingValues): SettingValues {
  const changes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && !same(project[name as SettingName], value)) changes[name] = value;
  }
  return changes as SettingValues;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-fA-F:.]+$/;

/** As the API's @IsIP: a dotted IPv4 address or an IPv6 address (URL's parser checks its form). */
export function isIpAddress(text: string): boolean {
  if (IPV4.test(text)) return true;
  if (!text.includes(':') || !IPV6.test(text)) return false;
  try {
    return new URL(`http://[${text}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}
