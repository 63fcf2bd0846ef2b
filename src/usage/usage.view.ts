import { ApiProperty } from '@nestjs/swagger';
import { INTERFACE_NAMES } from '../platform/interface-names';
import { LiveSessionCounts } from '../sessions/live-session.view';

/** One interface's use of its daily quota today. */
export class InterfaceUsageView {
  @ApiProperty({ enum: INTERFACE_NAMES }) name!: string;
  @ApiProperty({ description: 'the project may use the interface' }) authorized!: boolean;
  @ApiProperty({ description: 'the interface is switched on platform-wide' }) platform_enabled!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'calls per day; null: unlimited' }) daily_quota!: number | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'calls counted against the quota today (the counter the quota check uses); null when unlimited, which is not counted',
  })
  used!: number | null;
}

/** What a project uses right now: live sessions and today's quota per interface. */
export class UsageView {
  @ApiProperty({ format: 'date', description: 'today in time_zone: quotas start over at its midnight' }) day!: string;
  @ApiProperty() time_zone!: string;
  @ApiProperty({ type: LiveSessionCounts, description: 'live SDK sessions (not revoked, not expired) by type' })
  sessions!: LiveSessionCounts;
  @ApiProperty({ type: [InterfaceUsageView] }) interfaces!: InterfaceUsageView[];
  @ApiProperty({ type: 'integer', description: 'trial cards given, one per device, for ever (decisions §21)' }) trials!: number;
}
