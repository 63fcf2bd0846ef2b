import { Body, Controller, Post } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../../access/client-call';
import { AppUserCredentialsDto } from '../../app-users/app-users.dto';
import { AppUsersService } from '../../app-users/app-users.service';
import { Envelope } from '../../core/envelope/envelope.decorator';
import { ClientReply } from '../../core/envelope/render';
import { LegacyClient } from '../legacy-program.guard';

/** Compatibility program-user routes: form fields, legacy envelope (`code: 1`), no SDK session. */
@ApiTags('client: legacy')
@Envelope('legacy')
@LegacyClient()
@Controller('api/app-users')
export class CompatUsersController {
  constructor(private readonly users: AppUsersService) {}

  @Post('register')
  @ApiConsumes('application/x-www-form-urlencoded')
  async register(@Caller() call: ClientCall, @Body() body: AppUserCredentialsDto): Promise<ClientReply> {
    return { message: 'Registration successful', data: await this.users.register(call, body) };
  }

  @Post('login')
  @ApiConsumes('application/x-www-form-urlencoded')
  async login(@Caller() call: ClientCall, @Body() body: AppUserCredentialsDto): Promise<ClientReply> {
    return { message: 'Login successful', data: await this.users.compatLogin(call, body) };
  }
}
