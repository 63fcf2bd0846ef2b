import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../access/client-call';
import { AppUserCredentialsDto } from '../app-users/app-users.dto';
import { AppUsersService } from '../app-users/app-users.service';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ClientReply } from '../core/envelope/render';
import { BearerToken, SessionBearer } from '../sessions/session-bearer';
import { SdkSigned } from '../standard/hmac.guard';
import { HeartbeatDto } from './sdk.dto';

/** Program users over the SDK: signed JSON register and login, Bearer heartbeat (spec "SDK"). */
@ApiTags('client: SDK v1')
@Envelope('standard')
@Controller('api/v1/users')
export class SdkUsersController {
  constructor(private readonly users: AppUsersService) {}

  @Post('register')
  @SdkSigned()
  async register(@Caller() call: ClientCall, @Body() body: AppUserCredentialsDto): Promise<ClientReply> {
    return { message: 'Registration successful', data: await this.users.register(call, body) };
  }

  @Post('login')
  @SdkSigned()
  async login(@Caller() call: ClientCall, @Body() body: AppUserCredentialsDto): Promise<ClientReply> {
    return { message: 'Login successful', data: await this.users.sdkLogin(call, body) };
  }

  @Post('heartbeat')
  @SessionBearer()
  async heartbeat(@BearerToken() token: string, @Body() body: HeartbeatDto): Promise<ClientReply> {
    return { message: 'Heartbeat accepted', data: await this.users.heartbeat(token, body.machine_id) };
  }
}
