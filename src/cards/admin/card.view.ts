import { ApiProperty } from '@nestjs/swagger';
import { CardDevice } from '../card-device.entity';
import { Card, CARD_KINDS, CARD_STATUSES, CardKind, CardStatus } from '../card.entity';

const INSTANT = { type: String, format: 'date-time' } as const;

export class CardDeviceView {
  @ApiProperty() machine_code!: string;
  @ApiProperty(INSTANT) bound_at!: string;
}

/** The admin API's card resource (decisions §11); a class so that the OpenAPI document shows it. */
export class CardView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() code!: string;
  @ApiProperty({ enum: CARD_STATUSES }) status!: CardStatus;
  @ApiProperty({ enum: CARD_KINDS }) kind!: CardKind;
  @ApiProperty({ type: 'integer', nullable: true, description: 'count cards: logins left; null on time cards' }) uses_left!:
    number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'live sessions allowed at once; null: the project default' })
  concurrent_limit!: number | null;
  @ApiProperty({ type: 'integer' }) duration_seconds!: number;
  @ApiProperty({ type: 'integer' }) device_limit!: number;
  @ApiProperty({ ...INSTANT, nullable: true }) activated_at!: string | null;
  @ApiProperty({ ...INSTANT, nullable: true }) expires_at!: string | null;
  @ApiProperty({ type: 'integer' }) use_count!: number;
  @ApiProperty({ ...INSTANT, nullable: true }) last_login_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) note!: string | null;
  @ApiProperty({ type: String, format: 'email', nullable: true, description: "whom the card's mails go to (its buyer)" })
  holder_email!: string | null;
  @ApiProperty({ type: String, nullable: true }) batch_id!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'the card type it was made from (decisions §19)' }) card_type_id!:
    number | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'the agent whose order made it (decisions §19)' })
  agent_id!: string | null;
  @ApiProperty({ ...INSTANT, description: 'when the card was generated or imported' }) created_at!: string;
  @ApiProperty({ type: [CardDeviceView] }) devices!: CardDeviceView[];
}

export class CardBatchView {
  @ApiProperty() batch_id!: string;
  @ApiProperty({ type: [CardView] }) items!: CardView[];
}

export function toCardView(card: Card, devices: CardDevice[]): CardView {
  return {
    id: card.id,
    code: card.code,
    status: card.status,
    kind: card.kind,
    uses_left: card.usesLeft,
    concurrent_limit: card.concurrentLimit,
    duration_seconds: card.durationSeconds,
    device_limit: card.deviceLimit,
    activated_at: iso(card.activatedAt),
    expires_at: iso(card.expiresAt),
    use_count: card.useCount,
    last_login_at: iso(card.lastLoginAt),
    note: card.note,
    holder_email: card.holderEmail ?? null,
    batch_id: card.batchId,
    card_type_id: card.cardTypeId ?? null,
    agent_id: card.agentId ?? null,
    created_at: card.createdAt.toISOString(),
    devices: devices.map((d) => ({ machine_code: d.machineCode, bound_at: d.boundAt.toISOString() })),
  };
}

/** Views of several cards, each with its own devices picked out of one list. */
export function toCardViews(cards: Card[], devices: CardDevice[]): CardView[] {
  const byCard = new Map<number, CardDevice[]>();
  for (const d of devices) byCard.set(d.cardId, [...(byCard.get(d.cardId) ?? []), d]);
  return cards.map((c) => toCardView(c, byCard.get(c.id) ?? []));
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
