import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../access/client-call';
import { CardCheckoutService } from '../cards/card-checkout.service';
import { CardInfoService } from '../cards/card-info.service';
import { CardTopupService } from '../cards/card-topup.service';
import { CardUnbindService, unbindData } from '../cards/card-unbind.service';
import { AppConfig } from '../config/app-config';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ClientReply } from '../core/envelope/render';
import { BearerToken, SessionBearer } from '../sessions/session-bearer';
import { SdkSigned } from '../standard/hmac.guard';
import { HeartbeatDto, SdkCardKeyDto, SdkCardLoginDto, SdkCheckoutDto, SdkTopupDto } from './sdk.dto';
import { SdkCardsService } from './sdk-cards.service';

@ApiTags('client: SDK v1')
@Envelope('standard')
@Controller('api/v1/cards')
export class SdkCardsController {
  constructor(
    private readonly cards: SdkCardsService,
    private readonly checkouts: CardCheckoutService,
    private readonly topups: CardTopupService,
    private readonly infos: CardInfoService,
    private readonly unbinds: CardUnbindService,
    private readonly config: AppConfig,
  ) {}

  @Post('login')
  @SdkSigned()
  async login(@Caller() call: ClientCall, @Body() body: SdkCardLoginDto): Promise<ClientReply> {
    const { token, statecode, data } = await this.cards.login(call, body.card_key, body.machine_id);
    return { message: 'Login successful', extras: { token, statecode }, data };
  }

  @Post('checkout')
  @SdkSigned()
  async checkout(@Caller() call: ClientCall, @Body() body: SdkCheckoutDto): Promise<ClientReply> {
    const data = await this.checkouts.checkout({ call, cardKey: body.card_key, machine: body.machine_id, ttlSeconds: body.ttl_seconds });
    return { message: 'Offline licence issued', data };
  }

  @Post('topup')
  @SdkSigned()
  async topup(@Caller() call: ClientCall, @Body() body: SdkTopupDto): Promise<ClientReply> {
    const card = await this.topups.topup({ call, cardKey: body.card_key, topupKey: body.topup_key });
    return { message: 'Card topped up', data: this.infos.afterTopup(card) };
  }

  @Post('info')
  @SdkSigned()
  async info(@Caller() call: ClientCall, @Body() body: SdkCardKeyDto): Promise<ClientReply> {
    return { message: 'ok', data: await this.infos.info(call, body.card_key) };
  }

  /** The end user's unbind (decisions §14): the one unbind rule; the standard family answers it with code 1. */
  @Post('unbind')
  @SdkSigned()
  async unbind(@Caller() call: ClientCall, @Body() body: SdkCardLoginDto): Promise<ClientReply> {
    const card = await this.unbinds.unbind({ call, cardKey: body.card_key, machine: body.machine_id });
    return { message: 'Device unbound', successCode: 1, data: unbindData(card, body.machine_id, this.config.APP_TIMEZONE) };
  }

  @Post('heartbeat')
  @SessionBearer()
  async heartbeat(@BearerToken() token: string, @Body() body: HeartbeatDto): Promise<ClientReply> {
    return { message: 'Heartbeat accepted', data: await this.cards.heartbeat(token, body.machine_id) };
  }
}
