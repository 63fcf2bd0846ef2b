import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_INT32 } from '../common/limits';
import { Optional } from '../common/optional';
import { PageQuery } from '../common/paging';
import { CHECKOUT_STATUSES, CheckoutStatus } from './checkouts.repository';

/** Cards one checkout buys at most (decisions §26). */
export const MAX_CHECKOUT_CARDS = 100;

/** `POST /shop/api/:program_id/checkouts` (decisions §26). */
export class CreateCheckoutDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'a card type of the program that is for sale' })
  @IsInt()
  @Min(1)
  @Max(MAX_INT32)
  card_type_id!: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_CHECKOUT_CARDS })
  @IsInt()
  @Min(1)
  @Max(MAX_CHECKOUT_CARDS)
  count!: number;

  @ApiProperty({
    maxLength: 254,
    example: 'buyer@example.com',
    description: "the buyer's address (the cards are mailed there when mail is set up)",
  })
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email!: string;

  @ApiProperty({ example: 'epay', description: 'a payment provider the program has switched on' })
  @IsString()
  @Length(1, 16)
  provider!: string;

  @ApiPropertyOptional({
    pattern: '^[a-z0-9_]{1,16}$',
    example: 'alipay',
    description:
      "a payment method of the provider's gateway, when it offers several (epay: its `type`, e.g. alipay, wxpay, qqpay); absent: the gateway lets the buyer choose",
  })
  @Optional()
  @IsString()
  @Matches(/^[a-z0-9_]{1,16}$/, { message: 'pay_type must be 1-16 of [a-z0-9_]' })
  pay_type?: string;
}

/** `GET /shop/api/checkouts/:checkout_id?token=T`. */
export class CheckoutStatusQuery {
  @ApiPropertyOptional({
    description: "the checkout's secret token (from its answer, or the return address): with it the answer carries the cards",
  })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  token?: string;
}

/** The admin list of a project's checkouts. */
export class ListCheckoutsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: CHECKOUT_STATUSES, description: '`expired`: pending past its 15 minutes' })
  @IsOptional()
  @IsIn(CHECKOUT_STATUSES)
  status?: CheckoutStatus;
}

/** The admin list of refused payment notifications. */
export class ListPaymentRefusalsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'the refusals of one checkout' })
  @IsOptional()
  @IsUUID()
  checkout_id?: string;
}
