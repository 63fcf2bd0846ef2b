import { Body, Controller, Post } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../access/client-call';
import { CardLoginService } from '../cards/card-login.service';
import { AppConfig } from '../config/app-config';
import { Envelope } from '../http/envelope/envelope.decorator';
import { RequiresHttps } from '../http/https-required.guard';
import { ClientReply } from '../http/envelope/render';
import { LOGIN_EXTRAS, StandardCardLoginData, standardCardLoginData } from '../cards/card-data';
import { CARD_LOGIN_REFUSALS } from '../cards/card-login.service';
import { ApiAnswer, ApiFailures } from '../http/openapi/api-contract';
import { V3Signed } from '../standard/hmac.guard';
import { V3CardLoginDto } from './v3.dto';

/** HTTP V3 card login: the shared card-login rule; a compatible token, no session (decisions §3). */
@ApiTags('client: HTTP V3')
@Envelope('standard')
@RequiresHttps()
@Controller('api/legacy/v3')
export class V3Controller {
  constructor(
    private readonly cardLogin: CardLoginService,
    private readonly config: AppConfig,
  ) {}

  @Post('cards/login')
  @V3Signed()
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({
    summary: 'Log in with a card key on a device (HTTP V3, form-encoded)',
    description: 'A compatible token, no session (decisions §3).',
  })
  @ApiAnswer(StandardCardLoginData, { extras: LOGIN_EXTRAS })
  @ApiFailures(...CARD_LOGIN_REFUSALS)
  login(@Caller() call: ClientCall, @Body() body: V3CardLoginDto): Promise<ClientReply> {
    return this.cardLogin.answer({ call, cardKey: body.kami, machine: body.imei }, ({ card, token }) => ({
      message: 'Login successful',
      extras: { token, statecode: card.status },
      data: standardCardLoginData(card, body.imei, this.config.APP_TIMEZONE),
    }));
  }
}
