import { Body, Controller, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuditInterceptor } from '../../admin-kernel/admin-checks';
import { Envelope } from '../../http/envelope/envelope.decorator';
import { ErrorCode } from '../../core/errors/error-code';
import { DeclareAuthScheme } from '../../http/auth-scheme';
import { ClientContext, RequestContext } from '../../http/request-context';
import { SignInClient, SigningIn } from '../../admin-kernel/sign-in-client';
import { ApiAnswer, ApiFailures, ApiNoContent } from '../../http/openapi/api-contract';
import { AdminAuth, AgentScope, BeforeEnrolment } from '../../admin-kernel/admin-auth.decorator';
import { AdminSessionView } from '../admin-auth.view';
import { AdminPrincipal, CurrentAdmin } from '../../admin-kernel/admin-principal';
import { TwoFactorCodeDto, TwoFactorLoginDto } from './two-factor.dto';
import { TwoFactorService } from './two-factor.service';
import { TwoFactorEnrolmentView, TwoFactorRecoveryCodesView } from './two-factor.view';
import { RateLimit } from '../../http/throttling/route-rate.guard';

/** An agent's account signs in like any other, two-factor included (@AgentScope). */
@ApiTags('admin: auth')
@Envelope('admin')
@AgentScope()
@Controller('admin/v1/auth')
export class TwoFactorController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  /** Wrong codes count per account and per address (ADMIN_LOGIN_ATTEMPTS_PER_MINUTE), like wrong passwords. */
  @RateLimit('sign-in')
  @Post('login/2fa')
  @ApiOperation({ summary: 'Second sign-in step: the challenge and a TOTP or recovery code give the admin token' })
  @ApiAnswer(AdminSessionView)
  @ApiFailures(ErrorCode.UNAUTHENTICATED, ErrorCode.TWO_FACTOR_CODE_INVALID, ErrorCode.RATE_LIMITED)
  @HttpCode(200)
  @DeclareAuthScheme('none')
  @UseInterceptors(AuditInterceptor)
  login(@Body() body: TwoFactorLoginDto, @SigningIn() client: SignInClient) {
    return this.twoFactor.completeLogin(body.challenge, body.code, client);
  }

  @Post('2fa/enrol')
  @ApiOperation({ summary: 'Start two-factor sign-in: a new TOTP secret and its otpauth:// address (shown once)' })
  @ApiAnswer(TwoFactorEnrolmentView, { status: 201 })
  @ApiFailures(ErrorCode.TWO_FACTOR_ALREADY_ENABLED)
  @AdminAuth()
  @BeforeEnrolment()
  enrol(@CurrentAdmin() principal: AdminPrincipal) {
    return this.twoFactor.enrol(principal);
  }

  @Post('2fa/confirm')
  @ApiOperation({ summary: 'Turn two-factor sign-in on with a first code; answers the recovery codes, once' })
  @ApiAnswer(TwoFactorRecoveryCodesView)
  @ApiFailures(
    ErrorCode.TWO_FACTOR_CODE_INVALID,
    ErrorCode.TWO_FACTOR_ALREADY_ENABLED,
    ErrorCode.TWO_FACTOR_NOT_ENABLED,
    ErrorCode.RATE_LIMITED,
  )
  @HttpCode(200)
  @AdminAuth()
  @BeforeEnrolment()
  confirm(@CurrentAdmin() principal: AdminPrincipal, @Body() body: TwoFactorCodeDto, @ClientContext() client: RequestContext) {
    return this.twoFactor.confirm(principal, body.code, client.clientIp);
  }

  @Post('2fa/disable')
  @ApiOperation({ summary: 'Turn two-factor sign-in off (needs a code or a recovery code)' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.TWO_FACTOR_CODE_INVALID, ErrorCode.TWO_FACTOR_NOT_ENABLED, ErrorCode.RATE_LIMITED)
  @HttpCode(204)
  @AdminAuth()
  async disable(
    @CurrentAdmin() principal: AdminPrincipal,
    @Body() body: TwoFactorCodeDto,
    @ClientContext() client: RequestContext,
  ): Promise<void> {
    await this.twoFactor.disable(principal, body.code, client.clientIp);
  }
}
