import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiNoContent } from '../http/openapi/api-contract';
import { AdminIdentityView, AdminSessionView } from './admin-auth.view';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { SignInClient, SigningIn } from '../admin-kernel/sign-in-client';
import { getSchemaPath } from '@nestjs/swagger';
import { UseInterceptors } from '@nestjs/common';
import { AuditInterceptor } from '../admin-kernel/admin-checks';
import { AdminAuth, AgentScope, BeforeEnrolment } from '../admin-kernel/admin-auth.decorator';
import { AdminLoginChallengeView } from './two-factor/two-factor.view';
import { TwoFactorPolicy } from './two-factor/two-factor-policy';
import { AdminLoginDto, ChangePasswordDto } from './admin-auth.dto';
import { AdminAuthService } from './admin-auth.service';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { RateLimit } from '../http/throttling/route-rate.guard';
import { byAdminUsername, bySignedInUsername } from '../admin-kernel/rate-keys';
import { StepUp } from '../admin-kernel/step-up';
import { ClientContext, RequestContext } from '../http/request-context';
import { AppConfig } from '../config/app-config';

@ApiTags('admin: auth')
@Envelope('admin')
@AgentScope()
@Controller('admin/v1/auth')
export class AdminAuthController {
  constructor(
    private readonly auth: AdminAuthService,
    private readonly twoFactor: TwoFactorPolicy,
    private readonly config: AppConfig,
  ) {}

  /**
   * Password guessing is slowed per account and per client address (ADMIN_LOGIN_ATTEMPTS_PER_MINUTE failures, counted across instances).
   * An account with two-factor sign-in gets `{two_factor_required, challenge}` instead of a token: see `POST /auth/login/2fa`.
   */
  @RateLimit('sign-in', byAdminUsername)
  @Post('login')
  @ApiOperation({ summary: 'Sign in: a Bearer admin token, or the challenge of the two-factor step' })
  @ApiAnswer(
    { oneOf: [{ $ref: getSchemaPath(AdminSessionView) }, { $ref: getSchemaPath(AdminLoginChallengeView) }] },
    { models: [AdminSessionView, AdminLoginChallengeView] },
  )
  @ApiFailures(ErrorCode.UNAUTHENTICATED, ErrorCode.ACCOUNT_DISABLED, ErrorCode.RATE_LIMITED)
  @HttpCode(200)
  @DeclareAuthScheme('none')
  @UseInterceptors(AuditInterceptor)
  login(@Body() body: AdminLoginDto, @SigningIn() client: SignInClient) {
    return this.auth.login(body.username, body.password, client);
  }

  @Post('logout')
  @ApiOperation({ summary: 'Sign out: the token stops working' })
  @ApiNoContent()
  @HttpCode(204)
  @AdminAuth()
  @BeforeEnrolment()
  async logout(@CurrentAdmin() principal: AdminPrincipal): Promise<void> {
    await this.auth.logout(principal);
  }

  /**
   * Every account (platform admin, author, agent) changes its own password with the current one. A
   * wrong current password is 401 `11001` with `details` naming `current_password` (the token still
   * works) and counts with the sign-in's wrong passwords per account and address
   * (ADMIN_LOGIN_ATTEMPTS_PER_MINUTE); the requests share the sign-in's rate per account and address.
   * On success every other token of the account ends; this one and the account's API keys stay.
   */
  @Post('password')
  @ApiOperation({ summary: 'Change your own password: the other sessions of the account end, this one stays' })
  @ApiNoContent('Changed; the other tokens of the account no longer work')
  @HttpCode(204)
  // Above @AdminAuth: counted as a sign-in (per account and address) after the token is known.
  @RateLimit('sign-in', bySignedInUsername)
  @StepUp()
  // Below @StepUp: the first list applied is kept, so it names the step-up's codes too.
  @ApiFailures(ErrorCode.RATE_LIMITED, ErrorCode.TWO_FACTOR_REQUIRED, ErrorCode.TWO_FACTOR_CODE_INVALID)
  @AdminAuth()
  async changePassword(
    @CurrentAdmin() principal: AdminPrincipal,
    @Body() body: ChangePasswordDto,
    @ClientContext() client: RequestContext,
  ): Promise<void> {
    await this.auth.changeOwnPassword(principal, body.current_password, body.new_password, client.clientIp);
  }

  @Get('me')
  @ApiOperation({ summary: 'Who the token belongs to' })
  @ApiAnswer(AdminIdentityView)
  @AdminAuth()
  @BeforeEnrolment()
  async me(@CurrentAdmin() principal: AdminPrincipal): Promise<AdminIdentityView> {
    const required = await this.twoFactor.required();
    return {
      id: principal.id,
      username: principal.username,
      role: principal.role,
      two_factor_enabled: principal.twoFactorEnabled,
      two_factor_required: required,
      currency: this.config.CURRENCY,
    };
  }
}
