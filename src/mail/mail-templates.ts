import { formatLocalTime } from '../common/time';

/**
 * The mails the service sends (decisions §26). Each mail carries Chinese first, then English: a
 * buyer's language is not known at checkout, and one mail read by either reader needs no setting
 * (docs/decisions.md, "E-mail").
 */
export const MAIL_TEMPLATES = ['cards_delivered', 'card_expiring'] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

/** A paid checkout's cards: the program, the type and its days (null: permanent), the codes. */
export interface CardsDeliveredData {
  program_name: string;
  card_type_name: string;
  days: number | null;
  codes: string[];
}

/** One card's reminder, about three days before it expires. */
export interface CardExpiringData {
  program_name: string;
  card_code: string;
  /** ISO instant. */
  expires_at: string;
}

export interface MailData {
  cards_delivered: CardsDeliveredData;
  card_expiring: CardExpiringData;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Text made safe to stand in HTML, inside an element or an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One paragraph per language: its lines, each a list of parts, some of them marked as codes. */
type Part = string | { code: string };
interface Section {
  lines: Part[][];
  codes?: string[];
}

function renderText(sections: Section[]): string {
  const text = (part: Part) => (typeof part === 'string' ? part : part.code);
  return sections
    .map((s) => [...s.lines.map((line) => line.map(text).join('')), ...(s.codes ?? []).map((c) => `  ${c}`)].join('\n'))
    .join('\n\n----------\n\n')
    .concat('\n');
}

function renderHtml(sections: Section[]): string {
  const html = (part: Part) => (typeof part === 'string' ? escapeHtml(part) : `<code>${escapeHtml(part.code)}</code>`);
  const body = sections
    .map((s) => {
      const lines = s.lines.map((line) => `<p>${line.map(html).join('')}</p>`).join('');
      const codes = s.codes?.length
        ? `<ul>${s.codes.map((c) => `<li><code style="font-size:16px">${escapeHtml(c)}</code></li>`).join('')}</ul>`
        : '';
      return `<div>${lines}${codes}</div>`;
    })
    .join('<hr>');
  return `<!doctype html><html><body style="font-family:sans-serif">${body}</body></html>`;
}

/** Subjects go into a header: no line breaks, whatever a program is called. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}

function cardsDelivered(d: CardsDeliveredData): { subject: string; sections: Section[] } {
  const zhDays = d.days === null ? '永久' : `${d.days} 天`;
  const enDays = d.days === null ? 'permanent' : `${d.days} day${d.days === 1 ? '' : 's'}`;
  return {
    subject: oneLine(`【${d.program_name}】您的卡密 / Your licence keys`),
    sections: [
      {
        lines: [[`感谢购买 ${d.program_name}。`], [`卡类：${d.card_type_name}（${zhDays}），共 ${d.codes.length} 张：`]],
        codes: d.codes,
      },
      {
        lines: [
          [`Thank you for buying ${d.program_name}.`],
          [`Card type: ${d.card_type_name} (${enDays}), ${d.codes.length} card${d.codes.length === 1 ? '' : 's'}:`],
        ],
        codes: d.codes,
      },
    ],
  };
}

function cardExpiring(d: CardExpiringData, timeZone: string): { subject: string; sections: Section[] } {
  const when = `${formatLocalTime(new Date(d.expires_at), timeZone)} (${timeZone})`;
  return {
    subject: oneLine(`【${d.program_name}】卡密即将到期 / Your licence key expires soon`),
    sections: [
      { lines: [[`您的 ${d.program_name} 卡密 `, { code: d.card_code }, ` 将于 ${when} 到期。`]] },
      { lines: [[`Your ${d.program_name} licence key `, { code: d.card_code }, ` expires on ${when}.`]] },
    ],
  };
}

/** A mail's subject, plain text and HTML, every value escaped in the HTML; times in `timeZone`. */
export function renderMail<T extends MailTemplate>(template: T, data: MailData[T], timeZone: string): RenderedMail {
  const { subject, sections } =
    template === 'cards_delivered'
      ? cardsDelivered(data as CardsDeliveredData)
      : cardExpiring(data as CardExpiringData, timeZone);
  return { subject, text: renderText(sections), html: renderHtml(sections) };
}
