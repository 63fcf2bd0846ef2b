import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Envelope } from '../core/envelope/envelope.decorator';
import { DeclareAuthScheme } from '../core/http/auth-scheme';
import { ClientContext, RequestContext } from '../core/http/request-context';
import { AdminAuth } from './admin-auth.decorator';
import { AdminLoginDto } from './admin-auth.dto';
import { AdminAuthService } from './admin-auth.service';
import { AdminPrincipal, CurrentAdmin } from './admin-principal';

@ApiTags('admin: auth')
@Envelope('admin')
@Controller('admin/v1/auth')
export class AdminAuthController {
  constructor(private readonly auth: AdminAuthService) {}

  /** Password guessing is slowed per account and per client address (ADMIN_LOGIN_ATTEMPTS_PER_MINUTE failures, counted across instances). */
  @Post('login')
  @HttpCode(200)
  @DeclareAuthScheme('none')
  login(@Body() body: AdminLoginDto, @ClientContext() client: RequestContext) {
    return this.auth.login(body.username, body.password, client.clientIp);
  }

  @Post('logout')
  @HttpCode(204)
  @AdminAuth()
  async logout(@CurrentAdmin() principal: AdminPrincipal): Promise<void> {
    await this.auth.logout(principal);
  }

  @Get('me')
  @AdminAuth()
  me(@CurrentAdmin() principal: AdminPrincipal) {
    return { id: principal.id, username: principal.username, role: principal.role };
  }
}
