import { ApiProperty } from '@nestjs/swagger';
import { CLIENT_FAMILY_NAMES, ClientFamilyName } from '../core/client-families';
import { ERROR_CATALOG, ErrorCode } from '../core/errors/error-code';
import { pathOf } from '../http/envelope/family';
import { ExplanationView } from './request-explanation';

/** One client request in the request log (decisions §22). */
export class RequestLogView {
  @ApiProperty() request_id!: string;
  @ApiProperty({ type: String, format: 'date-time' }) at!: string;
  @ApiProperty({ enum: CLIENT_FAMILY_NAMES }) family!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'the route pattern; null for card logins recorded before the request log',
  })
  route!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'canonical interface name; null when refused before one was known' })
  interface!: string | null;
  @ApiProperty({ type: 'integer', description: '0: success; else the catalog code of the refusal' }) result_code!: number;
  @ApiProperty({ type: String, nullable: true, description: 'what the refusing rule said; null on success' }) reason!:
    string | null;
  @ApiProperty({ type: String, nullable: true }) ip!: string | null;
  @ApiProperty({ type: String, nullable: true }) machine_code!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) card_id!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'the card key the request named (card logins)' }) card_code!:
    string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'milliseconds from arrival to answer; null for card logins' })
  duration_ms!: number | null;
}

export class RequestExplainedView extends RequestLogView {
  @ApiProperty({ description: 'which rule decided, in words an author can act on (English; `explanation` for other languages)' })
  explain!: string;
  @ApiProperty({
    type: ExplanationView,
    description: "the same as a stable code and its facts, which the console words in the reader's language",
  })
  explanation!: ExplanationView;
}

export interface RequestRowData {
  request_id: string;
  created_at: Date;
  family: string;
  route: string | null;
  interface: string;
  result_code: number;
  reason: string | null;
  ip: string | null;
  machine_code: string | null;
  card_id: number | null;
  card_code: string | null;
  duration_ms: number | null;
}

export function toRequestLogView(row: RequestRowData): RequestLogView {
  const code = row.result_code as ErrorCode;
  return {
    request_id: row.request_id,
    at: new Date(row.created_at).toISOString(),
    family: row.family,
    route: row.route,
    interface: row.interface || null,
    result_code: row.result_code,
    reason: row.result_code === 0 ? null : (row.reason ?? ERROR_CATALOG[code]?.message ?? null),
    ip: row.ip,
    machine_code: row.machine_code,
    card_id: row.card_id,
    card_code: row.card_code,
    duration_ms: row.duration_ms,
  };
}

/** The client family a path belongs to (the request log's `family` of a request refused before its guard named one). */
export function clientFamilyOfPath(url: string): ClientFamilyName {
  const path = pathOf(url);
  if (path.startsWith('/connect') || path.startsWith('/conncet')) return 'connect';
  if (path.startsWith('/api/legacy/v3')) return 'v3';
  if (path.startsWith('/api/v1/portal')) return 'portal';
  if (path.startsWith('/api/v1')) return 'sdk';
  return 'legacy';
}
