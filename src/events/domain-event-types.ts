/** The event types of decisions §20, in the order the docs list them. */
export const DOMAIN_EVENT_TYPES = [
  'card.activated',
  'card.banned',
  'card.unbanned',
  'card.expiring_soon',
  'card.topped_up',
  'device.bound',
  'device.unbound',
  'session.forced_offline',
  'user.registered',
  'order.created',
  'order.paid',
  'agent.balance_low',
  'webhook.test',
] as const;
export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

/** What a card event names: the card, by id and by its code (the author's own key; robot texts shorten it). */
export interface CardRef {
  card_id: number;
  card_code: string;
}

/** The `data` of each event type, as a receiver gets it (docs/webhooks.md). Times are ISO 8601 UTC strings. */
export interface DomainEventData {
  'card.activated': CardRef & { machine_code: string; activated_at: string; expires_at: string | null };
  'card.banned': CardRef;
  'card.unbanned': CardRef & { status: string };
  'card.expiring_soon': CardRef & { expires_at: string };
  'card.topped_up': CardRef & {
    topup_card_id: number;
    expires_at: string | null;
    uses_left: number | null;
    duration_seconds: number;
  };
  'device.bound': CardRef & { machine_code: string };
  'device.unbound': CardRef & { machine_code: string; by: 'holder' | 'author' | 'idle' };
  'session.forced_offline': {
    session_id: string;
    type: 'card' | 'app_user';
    card_id: number | null;
    user_id: number | null;
    machine_code: string;
  };
  'user.registered': { user_id: number; username: string };
  'order.created': { order_id: string; card_type_id: string; count: number; agent_id: string | null; card_ids: number[] };
  /** A storefront checkout paid (decisions §26): its order (order_id = the checkout's id) was made in the same transaction. */
  'order.paid': {
    order_id: string;
    checkout_id: string;
    provider: string;
    card_type_id: string;
    count: number;
    amount_cents: number;
    currency: string;
    email: string;
    card_ids: number[];
    paid_late: boolean;
  };
  'agent.balance_low': { agent_id: string; balance_cents: number };
  'webhook.test': { endpoint_id: string; message: string };
}

export function isDomainEventType(value: string): value is DomainEventType {
  return (DOMAIN_EVENT_TYPES as readonly string[]).includes(value);
}
