import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CATALOG, ErrorCode } from '../core/errors/error-code';

/** Which rule decided a request (decisions §22): one code per rule the request log can explain. */
export const EXPLANATION_CODES = [
  'accepted',
  'card_unknown',
  'card_banned',
  'card_expired',
  'device_limit',
  'quota_exceeded',
  'blacklisted',
  'signature_invalid',
  'refused',
] as const;
export type ExplanationCode = (typeof EXPLANATION_CODES)[number];

/** A device bound to the card when the request came. */
export interface BoundDevice {
  machine_code: string;
  bound_at: string;
}

/**
 * The facts an explanation names, by code (times are ISO 8601 UTC; the console shows them in the
 * reader's zone). A null where a fact is no longer known (a deleted card, a removed entry).
 */
export interface ExplanationParams {
  /** accepted, quota_exceeded */
  interface?: string | null;
  /** card_unknown (the key the request named), card_banned, card_expired, device_limit */
  card_code?: string | null;
  /** card_banned: when and by whom, from the audit trail (null: not recorded, e.g. a ban by filter) */
  banned_at?: string | null;
  banned_by?: string | null;
  /** card_banned: false once it has been unbanned since */
  still_banned?: boolean;
  /** card_expired, blacklisted */
  expires_at?: string | null;
  /** card_expired: true once it has been extended since */
  extended?: boolean;
  /** device_limit */
  device_limit?: number | null;
  devices?: BoundDevice[];
  /** device_limit and blacklisted: the device the request named */
  machine_code?: string | null;
  /** quota_exceeded */
  daily_quota?: number | null;
  /** blacklisted: the entry (null once removed) */
  kind?: 'device' | 'address' | null;
  value?: string | null;
  entry_id?: number | null;
  created_at?: string | null;
  note?: string | null;
  ip?: string | null;
  /** refused: any other refusal, told by its catalog code */
  result_code?: number;
}

export interface Explanation {
  code: ExplanationCode;
  params: ExplanationParams;
}

export class ExplanationView implements Explanation {
  @ApiProperty({
    enum: EXPLANATION_CODES,
    description: 'the rule that decided; stable, for a client to word in its own language',
  })
  code!: ExplanationCode;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'the facts the explanation names (docs/operations.md, "Request log"): accepted {interface}; card_unknown {card_code}; ' +
      'card_banned {card_code, banned_at, banned_by, still_banned}; card_expired {card_code, expires_at, extended}; ' +
      'device_limit {card_code, device_limit, devices [{machine_code, bound_at}], machine_code}; quota_exceeded {interface, daily_quota}; ' +
      'blacklisted {kind, value, entry_id, created_at, expires_at, note, machine_code, ip}; signature_invalid {}; refused {result_code}',
  })
  params!: ExplanationParams;
}

/** The explanation in English: the request log's `explain`, for callers other than the console. */
export function explanationText({ code, params: p }: Explanation): string {
  switch (code) {
    case 'accepted':
      return `Accepted${p.interface ? ` (${p.interface})` : ''}.`;
    case 'card_unknown':
      return `No card of this project has the key "${p.card_code ?? ''}": a mistyped key, or a key of another program.`;
    case 'card_banned': {
      if (!p.card_code) return 'The card was banned (it has since been deleted).';
      const when = p.banned_at ? ` on ${p.banned_at}${p.banned_by ? ` by ${p.banned_by}` : ''}` : ' before this request';
      return p.still_banned
        ? `The card ${p.card_code} was banned${when} and still is; unban it on the card's page to let it in.`
        : `The card ${p.card_code} was banned${when} (it has been unbanned since).`;
    }
    case 'card_expired':
      if (!p.card_code || !p.expires_at) return 'The card had expired.';
      return `The card ${p.card_code} expired on ${p.expires_at}${p.extended ? ' (it has been extended since)' : ''}; extend or renew it.`;
    case 'device_limit': {
      if (p.device_limit == null) return 'The card had no device slot left for this device.';
      const bound = (p.devices ?? []).map((d) => `${d.machine_code} since ${d.bound_at}`).join(', ');
      return `Device limit ${p.device_limit} reached: bound to ${bound || 'devices since unbound'}; ${p.machine_code ?? 'this device'} was refused. Unbind a device or raise the limit.`;
    }
    case 'quota_exceeded':
      return `The daily quota of ${p.interface}${p.daily_quota != null ? ` (${p.daily_quota} a day)` : ''} was used up; it resets at midnight, or the platform admin can raise it.`;
    case 'blacklisted': {
      if (!p.kind)
        return `The ${p.machine_code ? `device ${p.machine_code} or ` : ''}address ${p.ip ?? ''} was on the login blacklist (the entry has since been removed).`;
      const until = p.expires_at ? ` until ${p.expires_at}` : ' for good';
      return `The ${p.kind} ${p.value} is on the login blacklist (entry ${p.entry_id}, added ${p.created_at}${until}${p.note ? `: "${p.note}"` : ''}); remove the entry to let it in.`;
    }
    case 'signature_invalid':
      return "The request's signature did not match the program's secret: the client signs with a wrong key or secret (or the request was changed on its way). Check the API secret built into the program.";
    case 'refused':
      return ERROR_CATALOG[p.result_code as ErrorCode]?.message ?? `Answered ${p.result_code}.`;
  }
}
