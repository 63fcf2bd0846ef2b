import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsString, MaxLength } from 'class-validator';
import { Optional } from '../common/optional';
import { DOMAIN_EVENT_TYPES, DomainEventType } from '../events/domain-event-types';
import { WEBHOOK_FORMATS, WebhookFormat } from './webhook-formats';

export class CreateWebhookDto {
  @ApiProperty({
    maxLength: 2048,
    description: 'http(s) URL the events are POSTed to; Telegram: https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat>',
  })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiProperty({
    type: [String],
    enum: DOMAIN_EVENT_TYPES,
    description: 'event types to deliver (webhook.test is always delivered by the test button)',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(DOMAIN_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(DOMAIN_EVENT_TYPES, { each: true })
  events!: DomainEventType[];

  @ApiPropertyOptional({ enum: WEBHOOK_FORMATS, default: 'json' })
  @Optional()
  @IsIn(WEBHOOK_FORMATS)
  format?: WebhookFormat;

  @ApiPropertyOptional({ default: true })
  @Optional()
  @IsBoolean()
  enabled?: boolean;
}

/** PATCH: any subset of the creation's fields; `enabled` says what turning one back on does. */
export class UpdateWebhookDto extends PartialType(CreateWebhookDto, { skipNullProperties: false }) {
  @ApiPropertyOptional({ description: 'true also clears a disabling by the service (the failure clock starts again)' })
  @Optional()
  @IsBoolean()
  override enabled?: boolean;
}

export class WebhookView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: [String], enum: DOMAIN_EVENT_TYPES }) events!: DomainEventType[];
  @ApiProperty({ enum: WEBHOOK_FORMATS }) format!: WebhookFormat;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['failing'],
    description: "'failing': the service switched it off after 3 days of failed deliveries",
  })
  disabled_reason!: 'failing' | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'first failed attempt since the last success' })
  failing_since!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}

export class WebhookAttemptView {
  @ApiProperty({ type: 'integer' }) attempt!: number;
  @ApiProperty({ type: String, format: 'date-time' }) attempted_at!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'HTTP status of the answer; null when none came' }) http_status!:
    number | null;
  @ApiProperty({ type: 'integer' }) duration_ms!: number;
  @ApiProperty({ description: 'the first KiB of the answer' }) response_excerpt!: string;
  @ApiProperty({ type: String, nullable: true, description: 'why no answer came (timeout, refused address, connection error)' })
  error!: string | null;
}

export class WebhookDeliveryView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'the event id (X-Svc-Webhook-Id), the same on every attempt' }) event_id!: string;
  @ApiProperty({ enum: DOMAIN_EVENT_TYPES }) type!: DomainEventType;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] }) status!: 'pending' | 'delivered' | 'failed';
  @ApiProperty({ type: 'integer' }) attempts!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when a pending delivery is tried next' })
  next_attempt_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) delivered_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ description: 'the event as the json format sends it', type: 'object', additionalProperties: true })
  payload!: Record<string, unknown>;
  @ApiProperty({ type: [WebhookAttemptView], description: 'every attempt, oldest first' }) attempt_log!: WebhookAttemptView[];
}
