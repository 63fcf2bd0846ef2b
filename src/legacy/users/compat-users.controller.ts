import { Body, Controller, Post } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { ClientProgram } from '../access/client-program';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ClientContext, RequestContext } from '../core/http/request-context';
import { AppUserCredentialsDto } from './app-users.dto';
import { AppUsersService } from './app-users.service';
import { LegacyClient, LegacyProgram } from '../legacy/legacy-program.guard';

/** Compatibility program-user routes: form fields, legacy envelope (`code: 1`), no SDK session. */
@ApiTags('client: legacy')
@Envelope('legacy')
@LegacyClient()
@Controller('api/app-users')
export class CompatUsersController {
  constructor(private readonly users: AppUsersService) {}

  @Post('register')
  @ApiConsumes('application/x-www-form-urlencoded')
  register(@LegacyProgram() program: ClientProgram, @Body() body: AppUserCredentialsDto) {
    return this.users.register(program, body);
  }

  @Post('login')
  @ApiConsumes('application/x-www-form-urlencoded')
  login(@LegacyProgram() program: ClientProgram, @Body() body: AppUserCredentialsDto, @ClientContext() client: RequestContext) {
    return this.users.compatLogin(program, body, client);
  }
}
