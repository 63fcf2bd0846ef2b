import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsInt, IsOptional, IsString, IsUUID, Matches, Max, Min } from 'class-validator';
import { MAX_INT32 } from '../common/limits';
import { Optional } from '../common/optional';
import { PageQuery } from '../common/paging';

export const MAX_ORDER_COUNT = 1000;

export class CreateOrderDto {
  @ApiProperty({
    example: 'shop-2024-000123',
    description: "the caller's own order number, 1-64 of [A-Za-z0-9_.:-]: a retry with it answers the same order",
  })
  @IsString()
  @Matches(/^[A-Za-z0-9_.:-]{1,64}$/, { message: 'order_id must be 1-64 of [A-Za-z0-9_.:-]' })
  order_id: string;

  @ApiProperty({ type: 'integer' })
  @IsInt()
  @Min(1)
  @Max(MAX_INT32)
  card_type_id: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_ORDER_COUNT })
  @IsInt()
  @Min(1)
  @Max(MAX_ORDER_COUNT)
  count: number;
}

export class ListOrdersQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'only the orders of this agent' })
  @Optional()
  @IsUUID()
  agent_id?: string;
}

export class RefundDto {
  @ApiPropertyOptional({
    type: [Number],
    description: 'the cards to refund (unused cards of the order); absent: every unused card of the order',
  })
  @IsOptional()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ORDER_COUNT)
  @ArrayUnique()
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_INT32, { each: true })
  card_ids?: number[];
}
