import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { UuidParamPipe } from '../common/uuid-param.pipe';
import { ErrorCode } from '../core/errors/error-code';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ApiAnswer, ApiFailures } from '../http/openapi/api-contract';
import { RateLimit } from '../http/throttling/route-rate.guard';
import { CheckoutStatusQuery, CreateCheckoutDto } from './checkout.dto';
import { CheckoutCreatedView, CheckoutStatusView } from './checkout.view';
import { CheckoutsService } from './checkouts.service';
import { StorefrontCatalogService } from './storefront-catalog.service';
import { StorefrontCatalogView } from './storefront-catalog.view';

const CHECKOUT_ID_PIPE = new UuidParamPipe(ErrorCode.CHECKOUT_NOT_FOUND);

/**
 * The storefront's public API (decisions §26): what a program sells, a buyer's checkout and its status. No sign-in: the
 * checkout's id finds it and its secret token shows its cards. Limited per client address; answers
 * and refusals are plain REST like the admin API's.
 */
@ApiTags('storefront')
@Envelope('admin')
@DeclareAuthScheme('none')
@Controller('shop/api')
export class ShopController {
  constructor(
    private readonly checkouts: CheckoutsService,
    private readonly catalogue: StorefrontCatalogService,
  ) {}

  @Get(':program_id')
  @RateLimit('shop-status')
  @ApiOperation({
    summary: "A program's storefront: its name, its card types for sale with their prices, and the payment providers it takes",
    description:
      'What the storefront page (`/shop/{program_id}`) shows. Only types for sale, enabled and priced; a stock type with no unsold card free now is `in_stock: false`.',
  })
  @ApiAnswer(StorefrontCatalogView)
  @ApiFailures(ErrorCode.PROGRAM_NOT_FOUND, ErrorCode.PROGRAM_DISABLED, ErrorCode.AUTHOR_DISABLED, ErrorCode.RATE_LIMITED)
  catalog(@Param('program_id') programId: string) {
    return this.catalogue.catalog(programId);
  }

  @Post(':program_id/checkouts')
  @RateLimit('shop-checkout')
  @ApiOperation({
    summary: 'Check out: a card type for sale, a count and an e-mail address; answers where to pay',
    description:
      "Fixes the price (type price × count) for 15 minutes; a type in stock mode reserves `count` of its unsold cards for that time. Send the buyer to `pay_url`; the provider brings them back to the storefront's return page with the checkout's token.",
  })
  @ApiAnswer(CheckoutCreatedView, { status: 201 })
  @ApiFailures(
    ErrorCode.PROGRAM_NOT_FOUND,
    ErrorCode.PROGRAM_DISABLED,
    ErrorCode.AUTHOR_DISABLED,
    ErrorCode.CARD_TYPE_NOT_FOR_SALE,
    ErrorCode.PAYMENT_PROVIDER_NOT_ENABLED,
    ErrorCode.PUBLIC_URL_NOT_SET,
    ErrorCode.OUT_OF_STOCK,
    ErrorCode.RATE_LIMITED,
  )
  create(@Param('program_id') programId: string, @Body() body: CreateCheckoutDto) {
    return this.checkouts.create(programId, body);
  }

  @Get('checkouts/:checkout_id')
  @RateLimit('shop-status')
  @ApiOperation({ summary: "A checkout's status; once paid, with its token, its cards" })
  @ApiAnswer(CheckoutStatusView)
  @ApiFailures(ErrorCode.CHECKOUT_NOT_FOUND, ErrorCode.RATE_LIMITED)
  status(@Param('checkout_id', CHECKOUT_ID_PIPE) checkoutId: string, @Query() query: CheckoutStatusQuery) {
    return this.checkouts.status(checkoutId, query.token);
  }
}
