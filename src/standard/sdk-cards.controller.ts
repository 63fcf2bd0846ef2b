import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ClientProgram } from '../access/client-program';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ClientContext, RequestContext } from '../core/http/request-context';
import { BearerToken, SessionBearer } from '../sessions/session-bearer';
import { HmacSigned, SignedProgram } from './hmac.guard';
import { HeartbeatDto, SdkCardLoginDto } from './standard.dto';
import { StandardCardsService } from './standard-cards.service';

@ApiTags('client: SDK v1')
@Envelope('standard')
@Controller('api/v1/cards')
export class SdkCardsController {
  constructor(private readonly cards: StandardCardsService) {}

  @Post('login')
  @HmacSigned('json')
  login(@SignedProgram() program: ClientProgram, @Body() body: SdkCardLoginDto, @ClientContext() client: RequestContext) {
    return this.cards.sdkLogin(program, body.card_key, body.machine_id, client);
  }

  @Post('heartbeat')
  @SessionBearer()
  heartbeat(@BearerToken() token: string, @Body() body: HeartbeatDto) {
    return this.cards.heartbeat(token, body.machine_id);
  }
}
