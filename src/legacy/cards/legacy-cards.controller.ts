import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { ClientProgram } from '../../access/client-program';
import { Envelope } from '../../core/envelope/envelope.decorator';
import { ClientContext, RequestContext } from '../../core/http/request-context';
import { LegacyClient, LegacyProgram, Md5Signed } from '../legacy-program.guard';
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
  kmlogon(@LegacyProgram() program: ClientProgram, @Body() body: LegacyCardDto, @ClientContext() client: RequestContext) {
    return this.cards.login(program, body.kami, body.imei, client);
  }

  @Post('card_login')
  @Md5Signed()
  @ApiConsumes(FORM)
  cardLogin(@LegacyProgram() program: ClientProgram, @Body() body: LegacyCardDto, @ClientContext() client: RequestContext) {
    return this.cards.login(program, body.kami, body.imei, client);
  }

  @Post('kmunmachine')
  @LegacyClient()
  @ApiConsumes(FORM)
  kmunmachine(@LegacyProgram() program: ClientProgram, @Body() body: LegacyCardDto) {
    return this.cards.unbind(program, body.kami, body.imei);
  }

  @Post('unbind_machine')
  @Md5Signed()
  @ApiConsumes(FORM)
  unbindMachine(@LegacyProgram() program: ClientProgram, @Body() body: LegacyCardDto) {
    return this.cards.unbind(program, body.kami, body.imei);
  }

  @Post('check')
  @LegacyClient()
  @ApiConsumes(FORM)
  check(@LegacyProgram() program: ClientProgram, @Body() body: LegacyCardDto) {
    return this.cards.check(program, body.kami, body.imei);
  }

  @Get('paycheck')
  @LegacyClient()
  paycheckGet(@LegacyProgram() program: ClientProgram, @Query() query: LegacyPaycheckDto) {
    return this.cards.paycheck(program, query.kami);
  }

  @Post('paycheck')
  @LegacyClient()
  @ApiConsumes(FORM)
  paycheckPost(@LegacyProgram() program: ClientProgram, @Body() body: LegacyPaycheckDto) {
    return this.cards.paycheck(program, body.kami);
  }
}
