import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ClientProgram } from '../access/client-program';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ClientContext, RequestContext } from '../core/http/request-context';
import { BearerToken, SessionBearer } from '../sessions/session-bearer';
import { HmacSigned, SignedProgram } from '../standard/hmac.guard';
import { HeartbeatDto } from '../standard/standard.dto';
import { AppUserCredentialsDto } from './app-users.dto';
import { AppUsersService } from './app-users.service';

/** Program users over the SDK: signed JSON register and login, Bearer heartbeat (spec "SDK"). */
@ApiTags('client: SDK v1')
@Envelope('standard')
@Controller('api/v1/users')
export class SdkUsersController {
  constructor(private readonly users: AppUsersService) {}

  @Post('register')
  @HmacSigned('json')
  register(@SignedProgram() program: ClientProgram, @Body() body: AppUserCredentialsDto) {
    return this.users.register(program, body);
  }

  @Post('login')
  @HmacSigned('json')
  login(@SignedProgram() program: ClientProgram, @Body() body: AppUserCredentialsDto, @ClientContext() client: RequestContext) {
    return this.users.sdkLogin(program, body, client);
  }

  @Post('heartbeat')
  @SessionBearer()
  heartbeat(@BearerToken() token: string, @Body() body: HeartbeatDto) {
    return this.users.heartbeat(token, body.machine_id);
  }
}
