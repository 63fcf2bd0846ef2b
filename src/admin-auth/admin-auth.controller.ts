import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle, ThrottlerGuard } from '@nestjs/throttler';
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

  /** Brute force is slowed per client address (10 attempts a minute, shared across instances). */
  @Post('login')
  @HttpCode(200)
  @DeclareAuthScheme('none')
  @UseGuards(ThrottlerGuard)
  @Throttle({ default: { limit: 10, ttl: 60_000 } })
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
