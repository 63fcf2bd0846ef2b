import { Body, Controller, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall, ClientRequest, Requester } from '../access/client-call';
import { AppUserCredentialsDto } from '../app-users/app-users.dto';
import { AppUsersService, RegisteredUser, SdkUserLogin, UserHeartbeat } from '../app-users/app-users.service';
import { Envelope } from '../http/envelope/envelope.decorator';
import { RequiresHttps } from '../http/https-required.guard';
import { ClientReply } from '../http/envelope/render';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures } from '../http/openapi/api-contract';
import { clientFamilyFailures } from '../http/openapi/failure-sources';
import { BearerToken, SessionBearer } from '../sessions/session-bearer';
import { SdkSigned } from '../standard/hmac.guard';
import { HeartbeatDto } from './sdk.dto';
import { byProgram, byProgramUser } from '../access/rate-keys';
import { RateLimit } from '../http/throttling/route-rate.guard';

/** Program users over the SDK: signed JSON register and login, Bearer heartbeat (spec "SDK"). */
@ApiTags('client: SDK v1')
@Envelope('standard')
@RequiresHttps()
@Controller('api/v1/users')
export class SdkUsersController {
  constructor(private readonly users: AppUsersService) {}

  @RateLimit('register', byProgram)
  @Post('register')
  @SdkSigned()
  @ApiOperation({
    summary: 'Register a program user',
    description: "The registering machine becomes the user's binding unless the project's machine policy is `free`.",
  })
  @ApiAnswer(RegisteredUser)
  @ApiFailures(ErrorCode.USERNAME_TAKEN, ErrorCode.RATE_LIMITED)
  async register(@Caller() call: ClientCall, @Body() body: AppUserCredentialsDto): Promise<ClientReply> {
    return { message: 'Registration successful', data: await this.users.register(call, body) };
  }

  @RateLimit('sign-in', byProgramUser)
  @Post('login')
  @SdkSigned()
  @ApiOperation({ summary: 'Log in a program user and open a user session' })
  @ApiAnswer(SdkUserLogin)
  @ApiFailures(ErrorCode.BAD_CREDENTIALS, ErrorCode.USER_BANNED, ErrorCode.MACHINE_MISMATCH, ErrorCode.RATE_LIMITED)
  async login(@Caller() call: ClientCall, @Body() body: AppUserCredentialsDto): Promise<ClientReply> {
    return { message: 'Login successful', data: await this.users.sdkLogin(call, body) };
  }

  @Post('heartbeat')
  @SessionBearer()
  @ApiOperation({ summary: 'Keep a user session alive' })
  @ApiAnswer(UserHeartbeat)
  @ApiFailures(ErrorCode.MACHINE_MISMATCH, ...clientFamilyFailures('sdk'))
  async heartbeat(
    @BearerToken() token: string,
    @Body() body: HeartbeatDto,
    @Requester() caller: ClientRequest,
  ): Promise<ClientReply> {
    return { message: 'Heartbeat accepted', data: await this.users.heartbeat(token, body.machine_id, caller) };
  }
}
