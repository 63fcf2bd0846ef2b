import { DomainEventData, DomainEventType } from '../events/domain-event-types';

export const WEBHOOK_FORMATS = ['json', 'wecom', 'dingtalk', 'feishu', 'telegram'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** One event as a receiver gets it in the `json` format (decisions §20). */
export interface WebhookEventBody {
  id: string;
  type: DomainEventType;
  created_at: string;
  project_id: string;
  data: unknown;
}

/** A card code in a group chat: enough to recognise it, not enough to use it. */
export function shortCode(code: string): string {
  return code.length <= 8 ? code : `${code.slice(0, 4)}…${code.slice(-4)}`;
}

/** One short English sentence per event, for the chat robots (the JSON format carries the data instead). */
export function eventText(projectName: string, event: WebhookEventBody): string {
  const d = event.data as Record<string, unknown>;
  const card = () => `card ${shortCode(String(d.card_code ?? ''))} (#${d.card_id})`;
  const sentence = (): string => {
    switch (event.type) {
      case 'card.activated':
        return `${card()} was activated on device ${d.machine_code}${d.expires_at ? `, valid until ${d.expires_at}` : ''}`;
      case 'card.banned':
        return `${card()} was banned`;
      case 'card.unbanned':
        return `${card()} was unbanned`;
      case 'card.expiring_soon':
        return `${card()} expires at ${d.expires_at}`;
      case 'card.topped_up':
        return `${card()} was topped up${d.expires_at ? `, now valid until ${d.expires_at}` : ''}`;
      case 'device.bound':
        return `device ${d.machine_code} was bound to ${card()}`;
      case 'device.unbound':
        return `device ${d.machine_code} was unbound from ${card()} (by ${d.by})`;
      case 'session.forced_offline':
        return `a session on device ${d.machine_code} was forced offline`;
      case 'user.registered':
        return `program user ${d.username} registered`;
      case 'order.created':
        return `order ${d.order_id} created ${d.count} cards`;
      case 'order.paid':
        return `storefront order ${d.order_id} was paid (${d.count} cards, ${d.amount_cents} cents ${d.currency}, ${d.provider})`;
      case 'agent.balance_low':
        return `agent ${d.agent_id}'s balance is low: ${d.balance_cents} cents`;
      case 'webhook.test':
        return String(d.message);
    }
  };
  return `[${projectName}] ${event.type}: ${sentence()}`;
}

/**
 * The body POSTed for `format`: the event itself, or the platform's text message around its
 * sentence (WeCom and DingTalk group robots: `msgtype: text`; Feishu custom bot: `msg_type: text`;
 * Telegram Bot API sendMessage, whose chat comes from the URL's `chat_id` query parameter).
 */
export function deliveryBody(format: WebhookFormat, url: string, projectName: string, event: WebhookEventBody): string {
  if (format === 'json') return JSON.stringify(event);
  const text = eventText(projectName, event);
  switch (format) {
    case 'wecom':
    case 'dingtalk':
      return JSON.stringify({ msgtype: 'text', text: { content: text } });
    case 'feishu':
      return JSON.stringify({ msg_type: 'text', content: { text } });
    case 'telegram':
      return JSON.stringify({ chat_id: new URL(url).searchParams.get('chat_id'), text, disable_web_page_preview: true });
  }
}

/**
 * Whether a 2xx answer of a chat platform means the message went out: WeCom and DingTalk answer
 * 200 with `errcode` ≠ 0 when they refuse it, Feishu with `code` ≠ 0, Telegram with `ok: false`.
 */
export function robotAccepted(format: WebhookFormat, excerpt: string): boolean {
  if (format === 'json') return true;
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(excerpt) as Record<string, unknown>;
  } catch {
    return true; // an answer longer than the excerpt, or not JSON: the status decides
  }
  if (format === 'telegram') return answer.ok !== false;
  if (format === 'feishu') return (answer.code ?? answer.StatusCode ?? 0) === 0;
  return (answer.errcode ?? 0) === 0;
}

export type { DomainEventData };
