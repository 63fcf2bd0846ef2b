import { Body, Controller, Post } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ClientReply } from '../core/envelope/render';
import { ConnectClient, ConnectContext, ConnectRequestContext } from './connect-program.guard';
import { ConnectLoginDto } from './connect.dto';
import { ConnectService } from './connect.service';

@ApiTags('client: Connect')
@Envelope('connect')
@ConnectClient()
@Controller()
export class ConnectController {
  constructor(private readonly connect: ConnectService) {}

  /** `/conncet` is the historical spelling, kept for old clients. */
  @Post(['connect/:programId', 'conncet/:programId'])
  @ApiConsumes('application/x-www-form-urlencoded')
  async login(@ConnectContext() context: ConnectRequestContext, @Body() body: ConnectLoginDto): Promise<ClientReply> {
    return { message: 'Login successful', data: await this.connect.login(context, body) };
  }
}
