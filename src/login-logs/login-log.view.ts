import { ApiProperty } from '@nestjs/swagger';
import { SalesItem } from '../sales/sales-item.view';
import { CLIENT_FAMILY_NAMES } from '../core/client-families';
import { LoginLog } from './login-log.entity';

/** The admin API's login-log entry. */
export class LoginLogView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ type: 'integer', nullable: true }) card_id!: number | null;
  @ApiProperty({ type: String, nullable: true }) card_code!: string | null;
  @ApiProperty({ type: String, nullable: true }) machine_code!: string | null;
  @ApiProperty({ type: String, nullable: true }) ip!: string | null;
  @ApiProperty({ enum: CLIENT_FAMILY_NAMES }) family!: string;
  @ApiProperty() interface!: string;
  @ApiProperty({ type: 'integer', description: '0 or 1: success; else the catalog code of the refusal' }) result_code!: number;
  @ApiProperty() request_id!: string;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
}

export function toLoginLogView(log: LoginLog): LoginLogView {
  return {
    id: Number(log.id),
    card_id: log.cardId,
    card_code: log.cardCode,
    machine_code: log.machineCode,
    ip: log.ip,
    family: log.family,
    interface: log.interface,
    result_code: log.resultCode,
    request_id: log.requestId,
    created_at: log.createdAt.toISOString(),
  };
}

/** One count of the stats: login attempts of one local day, interface and result code. */
export class StatsItem {
  @ApiProperty({ format: 'date', description: 'local day in time_zone' }) day!: string;
  @ApiProperty() interface!: string;
  @ApiProperty({ type: 'integer' }) result_code!: number;
  @ApiProperty({ type: 'integer' }) count!: number;
}

export class StatsView {
  @ApiProperty({ format: 'date' }) from!: string;
  @ApiProperty({ format: 'date' }) to!: string;
  @ApiProperty({
    description:
      "the zone of the items' days: the asked tz where it could be counted (see tz), else APP_TIMEZONE; " +
      'from and to are days of the asked tz',
  })
  time_zone!: string;
  @ApiProperty({ description: "the zone of the sales' days: always APP_TIMEZONE (their counters keep its days)" })
  sales_time_zone!: string;
  @ApiProperty({ type: [StatsItem] }) items!: StatsItem[];
  @ApiProperty({
    type: [SalesItem],
    description: 'cards sold, activated and revenue per day, agent and card type (orders, decisions §19)',
  })
  sales!: SalesItem[];
}
