import { Body, Controller, Post } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../../access/client-call';
import { AppUserCredentialsDto } from '../../app-users/app-users.dto';
import { AppUsersService, CompatUserLogin, RegisteredUser } from '../../app-users/app-users.service';
import { Envelope } from '../../http/envelope/envelope.decorator';
import { ClientReply } from '../../http/envelope/render';
import { ErrorCode } from '../../core/errors/error-code';
import { ApiAnswer, ApiFailures } from '../../http/openapi/api-contract';
import { LegacyClient } from '../legacy-program.guard';
import { byProgram, byProgramUser } from '../../access/rate-keys';
import { RateLimit } from '../../http/throttling/route-rate.guard';

/** Compatibility program-user routes: form fields, legacy envelope (`code: 1`), no SDK session. */
@ApiTags('client: legacy')
@Envelope('legacy')
@LegacyClient()
@Controller('api/app-users')
export class CompatUsersController {
  constructor(private readonly users: AppUsersService) {}

  @RateLimit('register', byProgram)
  @Post('register')
  @ApiOperation({ summary: 'Register a program user (compatibility route)' })
  @ApiAnswer(RegisteredUser)
  @ApiFailures(ErrorCode.USERNAME_TAKEN, ErrorCode.RATE_LIMITED)
  @ApiConsumes('application/x-www-form-urlencoded')
  async register(@Caller() call: ClientCall, @Body() body: AppUserCredentialsDto): Promise<ClientReply> {
    return { message: 'Registration successful', data: await this.users.register(call, body) };
  }

  @RateLimit('sign-in', byProgramUser)
  @Post('login')
  @ApiOperation({ summary: 'Log in a program user (compatibility route: a token, no session)' })
  @ApiAnswer(CompatUserLogin)
  @ApiFailures(ErrorCode.BAD_CREDENTIALS, ErrorCode.USER_BANNED, ErrorCode.MACHINE_MISMATCH, ErrorCode.RATE_LIMITED)
  @ApiConsumes('application/x-www-form-urlencoded')
  async login(@Caller() call: ClientCall, @Body() body: AppUserCredentialsDto): Promise<ClientReply> {
    return { message: 'Login successful', data: await this.users.compatLogin(call, body) };
  }
}
