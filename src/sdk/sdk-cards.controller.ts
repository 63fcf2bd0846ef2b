import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ClientProgram } from '../access/client-program';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ClientContext, RequestContext } from '../core/http/request-context';
import { BearerToken, SessionBearer } from '../sessions/session-bearer';
import { HmacSigned, SignedProgram } from './hmac.guard';
import { HeartbeatDto, SdkCardLoginDto, SdkCheckoutDto } from './standard.dto';
import { CardCheckoutService } from '../cards/card-checkout.service';
import { StandardCardsService } from './standard-cards.service';

@ApiTags('client: SDK v1')
@Envelope('standard')
@Controller('api/v1/cards')
export class SdkCardsController {
  constructor(
    private readonly cards: StandardCardsService,
    private readonly checkouts: CardCheckoutService,
  ) {}

  @Post('login')
  @HmacSigned('json')
  login(@SignedProgram() program: ClientProgram, @Body() body: SdkCardLoginDto, @ClientContext() client: RequestContext) {
    return this.cards.sdkLogin(program, body.card_key, body.machine_id, client);
  }

  @Post('checkout')
  @HmacSigned('json')
  checkout(@SignedProgram() program: ClientProgram, @Body() body: SdkCheckoutDto) {
    return this.checkouts.checkout({ program, cardKey: body.card_key, machine: body.machine_id, ttlSeconds: body.ttl_seconds, gate: { requireBasicPackage: true } });
  }

  @Post('heartbeat')
  @SessionBearer()
  heartbeat(@BearerToken() token: string, @Body() body: HeartbeatDto) {
    return this.cards.heartbeat(token, body.machine_id);
  }
}
