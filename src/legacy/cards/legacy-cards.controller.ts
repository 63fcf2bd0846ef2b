import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../../access/client-call';
import { Envelope } from '../../core/envelope/envelope.decorator';
import { LegacyClient, Md5Signed } from '../legacy-program.guard';
import { LegacyCardDto, LegacyPaycheckDto } from '../legacy.dto';
import { LegacyCardsService } from './legacy-cards.service';

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
  @LegacyClient()
  @ApiConsumes(FORM)
  kmlogon(@Caller() call: ClientCall, @Body() body: LegacyCardDto) {
    return this.cards.login(call, body.kami, body.imei);
  }

  @Post('card_login')
  @Md5Signed()
  @ApiConsumes(FORM)
  cardLogin(@Caller() call: ClientCall, @Body() body: LegacyCardDto) {
    return this.cards.login(call, body.kami, body.imei);
  }

  @Post('kmunmachine')
  @LegacyClient()
  @ApiConsumes(FORM)
  kmunmachine(@Caller() call: ClientCall, @Body() body: LegacyCardDto) {
    return this.cards.unbind(call, body.kami, body.imei);
  }

  @Post('unbind_machine')
  @Md5Signed()
  @ApiConsumes(FORM)
  unbindMachine(@Caller() call: ClientCall, @Body() body: LegacyCardDto) {
    return this.cards.unbind(call, body.kami, body.imei);
  }

  @Post('check')
  @LegacyClient()
  @ApiConsumes(FORM)
  check(@Caller() call: ClientCall, @Body() body: LegacyCardDto) {
    return this.cards.check(call, body.kami, body.imei);
  }

  @Get('paycheck')
  @LegacyClient()
  paycheckGet(@Caller() call: ClientCall, @Query() query: LegacyPaycheckDto) {
    return this.cards.paycheck(call, query.kami);
  }

  @Post('paycheck')
  @LegacyClient()
  @ApiConsumes(FORM)
  paycheckPost(@Caller() call: ClientCall, @Body() body: LegacyPaycheckDto) {
    return this.cards.paycheck(call, body.kami);
  }
}
