import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../access/client-call';
import { CardCheckoutService } from '../cards/card-checkout.service';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ClientReply } from '../core/envelope/render';
import { BearerToken, SessionBearer } from '../sessions/session-bearer';
import { SdkSigned } from '../standard/hmac.guard';
import { HeartbeatDto, SdkCardLoginDto, SdkCheckoutDto } from './sdk.dto';
import { SdkCardsService } from './sdk-cards.service';

@ApiTags('client: SDK v1')
@Envelope('standard')
@Controller('api/v1/cards')
export class SdkCardsController {
  constructor(
    private readonly cards: SdkCardsService,
    private readonly checkouts: CardCheckoutService,
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

  @Post('heartbeat')
  @SessionBearer()
  async heartbeat(@BearerToken() token: string, @Body() body: HeartbeatDto): Promise<ClientReply> {
    return { message: 'Heartbeat accepted', data: await this.cards.heartbeat(token, body.machine_id) };
  }
}
