import { ApiProperty } from '@nestjs/swagger';

/** Sales of one day, agent and card type, from counters (never a scan). */
export class SalesItem {
  @ApiProperty({ format: 'date', description: 'local day in time_zone' }) day!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "null: the author's own orders" }) agent_id!:
    string | null;
  @ApiProperty({ type: 'integer' }) card_type_id!: number;
  @ApiProperty({ type: 'integer', description: 'cards ordered, less those refunded' }) sold!: number;
  @ApiProperty({ type: 'integer', description: 'cards of orders first activated that day' }) activated!: number;
  @ApiProperty({ type: 'integer', description: 'cents agents paid, less refunds' }) revenue_cents!: number;
}
