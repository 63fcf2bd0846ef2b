import { Body, Controller, Post } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { ClientProgram } from '../access/client-program';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ClientContext, RequestContext } from '../core/http/request-context';
import { HmacSigned, SignedProgram } from './hmac.guard';
import { V3CardLoginDto } from './standard.dto';
import { StandardCardsService } from './standard-cards.service';

@ApiTags('client: HTTP V3')
@Envelope('standard')
@Controller('api/legacy/v3')
export class V3Controller {
  constructor(private readonly cards: StandardCardsService) {}

  @Post('cards/login')
  @HmacSigned('form')
  @ApiConsumes('application/x-www-form-urlencoded')
  login(@SignedProgram() program: ClientProgram, @Body() body: V3CardLoginDto, @ClientContext() client: RequestContext) {
    return this.cards.v3Login(program, body.kami, body.imei, client);
  }
}
