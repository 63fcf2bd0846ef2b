import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { KeyedThrottlerGuard } from '../core/throttling/keyed-throttler.guard';
import { Envelope } from '../core/envelope/envelope.decorator';
import { DeclareAuthScheme } from '../core/http/auth-scheme';
import { AdminAuth } from './admin-auth.decorator';
import { AdminLoginDto } from './admin-auth.dto';
import { AdminAuthService } from './admin-auth.service';
import { AdminPrincipal, CurrentAdmin } from './admin-principal';

@ApiTags('admin: auth')
@Envelope('admin')
@Controller('admin/v1/auth')
export class AdminAuthController {
  constructor(private readonly auth: AdminAuthService) {}

  /** Password guessing is slowed per client address and account (ADMIN_LOGIN_ATTEMPTS_PER_MINUTE, counted across instances). */
  @Post('login')
  @HttpCode(200)
  @DeclareAuthScheme('none')
  @UseGuards(KeyedThrottlerGuard)
  login(@Body() body: AdminLoginDto) {
    return this.auth.login(body.username, body.password);
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
