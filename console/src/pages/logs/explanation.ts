import type { TFunction } from 'i18next';
import type { Schemas } from '../../api/client';

type Explanation = Schemas['ExplanationView'];

/** The facts of an explanation (the API's `ExplanationParams`: see the schema's description of `params`). */
interface Facts {
  interface?: string | null;
  card_code?: string | null;
  banned_at?: string | null;
  banned_by?: string | null;
  still_banned?: boolean;
  expires_at?: string | null;
  extended?: boolean;
  device_limit?: number | null;
  devices?: Array<{ machine_code: string; bound_at: string }>;
  machine_code?: string | null;
  daily_quota?: number | null;
  kind?: 'device' | 'address' | null;
  value?: string | null;
  entry_id?: number | null;
  created_at?: string | null;
  note?: string | null;
  ip?: string | null;
  result_code?: number;
}

/**
 * Why a request was answered so, in the reader's language (`requests.explain` texts) with times in
 * their zone; `english` (the API's `explain`) for a code this console does not know yet.
 */
export function explanationText(
  explanation: Explanation,
  english: string,
  t: TFunction,
  dateTime: (iso: string) => string,
): string {
  const p = explanation.params as Facts;
  const text = (key: string, values: Record<string, unknown> = {}) => t(`requests.explain.${key}`, values);
  switch (explanation.code) {
    case 'accepted':
      return p.interface ? text('acceptedVia', { interface: p.interface }) : text('accepted');
    case 'card_unknown':
      return text('cardUnknown', { key: p.card_code ?? '' });
    case 'card_banned': {
      if (!p.card_code) return text('cardBannedGone');
      const by = p.banned_at && p.banned_by ? 'By' : '';
      return text(`cardBanned${by}${p.still_banned ? '' : 'Lifted'}`, {
        card: p.card_code,
        at: p.banned_at && dateTime(p.banned_at),
        by: p.banned_by,
      });
    }
    case 'card_expired':
      if (!p.card_code || !p.expires_at) return text('cardExpiredGone');
      return text(p.extended ? 'cardExpiredExtended' : 'cardExpired', { card: p.card_code, at: dateTime(p.expires_at) });
    case 'device_limit': {
      if (p.device_limit == null) return text('deviceLimitGone');
      const bound = (p.devices ?? []).map((d) => text('boundSince', { device: d.machine_code, at: dateTime(d.bound_at) }));
      return text('deviceLimit', {
        limit: p.device_limit,
        devices: bound.length ? bound.join(text('listSeparator')) : text('devicesUnbound'),
        device: p.machine_code ?? text('thisDevice'),
      });
    }
    case 'quota_exceeded':
      return p.daily_quota == null
        ? text('quotaUnknown', { interface: p.interface })
        : text('quota', { interface: p.interface, quota: p.daily_quota });
    case 'blacklisted': {
      if (!p.kind)
        return p.machine_code
          ? text('blacklistRemoved', { device: p.machine_code, ip: p.ip })
          : text('blacklistRemovedAddress', { ip: p.ip });
      const entry = text(p.kind === 'device' ? 'blacklistedDevice' : 'blacklistedAddress', {
        value: p.value,
        entry: p.entry_id,
        added: p.created_at && dateTime(p.created_at),
        until: p.expires_at ? text('until', { at: dateTime(p.expires_at) }) : text('forGood'),
      });
      return p.note ? text('withNote', { text: entry, note: p.note }) : entry;
    }
    case 'signature_invalid':
      return text('signatureInvalid');
    case 'refused':
      return t(`catalog.${p.result_code}`, { defaultValue: english });
    default:
      return english;
  }
}
