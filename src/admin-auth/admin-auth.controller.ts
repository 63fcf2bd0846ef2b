import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiNoContent } from '../core/openapi/api-contract';
import { AdminIdentityView, AdminSessionView } from './admin-auth.view';
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
  @ApiOperation({ summary: 'Sign in: a Bearer admin token' })
  @ApiAnswer(AdminSessionView)
  @ApiFailures(ErrorCode.UNAUTHENTICATED, ErrorCode.ACCOUNT_DISABLED, ErrorCode.RATE_LIMITED)
  @HttpCode(200)
  @DeclareAuthScheme('none')
  login(@Body() body: AdminLoginDto, @ClientContext() client: RequestContext) {
    return this.auth.login(body.username, body.password, client.clientIp);
  }

  @Post('logout')
  @ApiOperation({ summary: 'Sign out: the token stops working' })
  @ApiNoContent()
  @HttpCode(204)
  @AdminAuth()
  async logout(@CurrentAdmin() principal: AdminPrincipal): Promise<void> {
    await this.auth.logout(principal);
  }

  @Get('me')
  @ApiOperation({ summary: 'Who the token belongs to' })
  @ApiAnswer(AdminIdentityView)
  @AdminAuth()
  me(@CurrentAdmin() principal: AdminPrincipal): AdminIdentityView {
    return { id: principal.id, username: principal.username, role: principal.role };
  }
}
