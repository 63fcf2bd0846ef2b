import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { MAX_INT32 } from '../common/limits';

export class SetAgentPriceDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: MAX_INT32,
    example: 750,
    description:
      "what one card of the type costs this agent, in cents, instead of the list price less its discount; a sub-agent's at least its parent's price",
  })
  @IsInt()
  @Min(0)
  @Max(MAX_INT32)
  price_cents: number;
}

/** A card type an agent may sell, with what it costs the agent and why. */
export class AgentPriceView {
  @ApiProperty({ type: 'integer' }) card_type_id!: number;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'a disabled type is not sold until enabled again' }) enabled!: boolean;
  @ApiProperty({ type: 'integer', description: "the type's list price" }) price_cents!: number;
  @ApiProperty({ type: 'integer', description: "the list price less the agent's discount" }) discount_price_cents!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "the agent's own price for the type (null: none, the discount applies)",
  })
  own_price_cents!: number | null;
  @ApiProperty({
    type: 'integer',
    description: 'what one card costs the agent: its own price when set, else the discounted price',
  })
  agent_price_cents!: number;
}
