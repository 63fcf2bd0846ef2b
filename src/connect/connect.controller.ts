import { Body, Controller, Post } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ClientReply } from '../http/envelope/render';
import { ApiAnswer, ApiFailures } from '../http/openapi/api-contract';
import { CARD_LOGIN_REFUSALS } from '../cards/card-login.service';
import { ConnectClient, ConnectContext, ConnectRequestContext } from './connect-program.guard';
import { ConnectLoginDto } from './connect.dto';
import { ConnectLoginData, ConnectService } from './connect.service';

@ApiTags('client: Connect')
@Envelope('connect')
@ConnectClient()
@Controller()
export class ConnectController {
  constructor(private readonly connect: ConnectService) {}

  /** `/conncet` is the historical spelling, kept for old clients. */
  @Post(['connect/:programId', 'conncet/:programId'])
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({
    summary: 'Log in with a card key on a device (Connect)',
    description: "The answer's field names and failure texts follow the project's Connect customization (decisions §8).",
  })
  @ApiParam({
    name: 'programId',
    description: 'The public program ID (8 digits)',
    schema: { type: 'string', pattern: '^\\d{8}$' },
  })
  @ApiAnswer(ConnectLoginData)
  @ApiFailures(...CARD_LOGIN_REFUSALS)
  login(@ConnectContext() context: ConnectRequestContext, @Body() body: ConnectLoginDto): Promise<ClientReply> {
    return this.connect.login(context, body);
  }
}
