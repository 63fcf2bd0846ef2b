import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../../access/client-call';
import { CARD_LOGIN_REFUSALS } from '../../cards/card-login.service';
import { CARD_UNBIND_REFUSALS, CardUnbindData } from '../../cards/card-unbind.service';
import { Envelope } from '../../http/envelope/envelope.decorator';
import { ErrorCode } from '../../core/errors/error-code';
import { ApiAnswer, ApiFailures } from '../../http/openapi/api-contract';
import { LegacyCardLogin, LegacyCardState, LegacyPaycheck } from '../legacy-answers';
import { LegacyClient, Md5Signed } from '../legacy-program.guard';
import { LegacyCardDto, LegacyPaycheckDto } from '../legacy.dto';
import { LegacyCardsService } from './legacy-cards.service';
import { byCard } from '../../access/rate-keys';
import { RateLimit } from '../../http/throttling/route-rate.guard';

const FORM = 'application/x-www-form-urlencoded';

/**
 * Legacy V1 card routes (form fields `app, kami, imei`; legacy envelope, success `code: 1`).
 * `/api/card_login` and `/api/unbind_machine` need the MD5 parameter signature; the older
 * `/api/kmlogon` and `/api/kmunmachine` and the read-only checks are unsigned (decisions §3).
 */
@ApiTags('client: legacy')
@Envelope('legacy')
@Controller('api')
export class LegacyCardsController {
  constructor(private readonly cards: LegacyCardsService) {}

  @Post('kmlogon')
  @ApiOperation({ summary: 'Log in with a card key on a device (older unsigned route)' })
  @ApiAnswer(LegacyCardLogin)
  @ApiFailures(...CARD_LOGIN_REFUSALS)
  @LegacyClient()
  @ApiConsumes(FORM)
  kmlogon(@Caller() call: ClientCall, @Body() body: LegacyCardDto) {
    return this.cards.login(call, body.kami, body.imei);
  }

  @Post('card_login')
  @ApiOperation({ summary: 'Log in with a card key on a device (MD5-signed)' })
  @ApiAnswer(LegacyCardLogin)
  @ApiFailures(...CARD_LOGIN_REFUSALS)
  @Md5Signed()
  @ApiConsumes(FORM)
  cardLogin(@Caller() call: ClientCall, @Body() body: LegacyCardDto) {
    return this.cards.login(call, body.kami, body.imei);
  }

  @RateLimit('unbind', byCard)
  @Post('kmunmachine')
  @ApiOperation({ summary: 'Unbind a device from a card (older unsigned route)' })
  @ApiAnswer(CardUnbindData)
  @ApiFailures(...CARD_UNBIND_REFUSALS)
  @LegacyClient()
  @ApiConsumes(FORM)
  kmunmachine(@Caller() call: ClientCall, @Body() body: LegacyCardDto) {
    return this.cards.unbind(call, body.kami, body.imei);
  }

  @RateLimit('unbind', byCard)
  @Post('unbind_machine')
  @ApiOperation({ summary: 'Unbind a device from a card (MD5-signed)' })
  @ApiAnswer(CardUnbindData)
  @ApiFailures(...CARD_UNBIND_REFUSALS)
  @Md5Signed()
  @ApiConsumes(FORM)
  unbindMachine(@Caller() call: ClientCall, @Body() body: LegacyCardDto) {
    return this.cards.unbind(call, body.kami, body.imei);
  }

  @Post('check')
  @ApiOperation({
    summary: 'Check that a card lets this device in now, without logging in',
    description: 'Renews, binds and activates nothing (decisions §16).',
  })
  @ApiAnswer(LegacyCardState)
  @ApiFailures(
    ErrorCode.CARD_INVALID,
    ErrorCode.CARD_BANNED,
    ErrorCode.CARD_EXPIRED,
    ErrorCode.DEVICE_NOT_BOUND,
    ErrorCode.RATE_LIMITED,
  )
  @LegacyClient()
  @ApiConsumes(FORM)
  check(@Caller() call: ClientCall, @Body() body: LegacyCardDto) {
    return this.cards.check(call, body.kami, body.imei);
  }

  @Get('paycheck')
  @ApiOperation({ summary: 'Check whether a card is activated and valid (query)' })
  @ApiAnswer(LegacyPaycheck)
  @ApiFailures(ErrorCode.CARD_INVALID, ErrorCode.RATE_LIMITED)
  @LegacyClient()
  paycheckGet(@Caller() call: ClientCall, @Query() query: LegacyPaycheckDto) {
    return this.cards.paycheck(call, query.kami);
  }

  @Post('paycheck')
  @ApiOperation({ summary: 'Check whether a card is activated and valid (form)' })
  @ApiAnswer(LegacyPaycheck)
  @ApiFailures(ErrorCode.CARD_INVALID, ErrorCode.RATE_LIMITED)
  @LegacyClient()
  @ApiConsumes(FORM)
  paycheckPost(@Caller() call: ClientCall, @Body() body: LegacyPaycheckDto) {
    return this.cards.paycheck(call, body.kami);
  }
}
