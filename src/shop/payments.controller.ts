import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { AdminAuth, AdminRoles } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { StepUp } from '../admin-kernel/step-up';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { ErrorCode } from '../core/errors/error-code';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ApiAnswer, ApiFailures, ApiListAnswer, ApiNoContent } from '../http/openapi/api-contract';
import { PaymentSettingsService } from './payment-settings.service';
import { PaymentSettingsView } from './payment-settings.view';
import { AlipaySettingsDto } from './providers/alipay.provider';
import { EpaySettingsDto } from './providers/epay.provider';
import { StripeSettingsDto } from './providers/stripe.provider';

/**
 * A project's payment providers (decisions §26). The body of a PUT is the provider's own settings
 * (one DTO per provider, checked by the service); fields left out keep their stored values. Secrets
 * are stored encrypted and never answered. API keys are refused (no scope opens these routes).
 */
@ApiTags('admin: payments')
@ApiExtraModels(EpaySettingsDto, StripeSettingsDto, AlipaySettingsDto)
@Envelope('admin')
@AdminAuth()
@AdminRoles('author', 'platform_admin')
@Controller('admin/v1/projects/:id/payments')
export class PaymentsController {
  constructor(private readonly payments: PaymentSettingsService) {}

  @Get()
  @ApiOperation({ summary: "List a project's payment providers, secrets masked" })
  @ApiListAnswer(PaymentSettingsView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string) {
    return this.payments.list(actor, id);
  }

  @Put(':provider')
  @StepUp()
  @ApiOperation({
    summary: "Set a payment provider's settings (epay, stripe, alipay); fields left out keep their stored values",
    description:
      'Switching a provider on needs PUBLIC_URL (PUBLIC_URL_NOT_SET) and a CURRENCY it takes. An unknown provider is a 400 naming the known ones.',
  })
  @ApiBody({
    schema: {
      oneOf: [getSchemaPath(EpaySettingsDto), getSchemaPath(StripeSettingsDto), getSchemaPath(AlipaySettingsDto)].map(($ref) => ({
        $ref,
      })),
    },
    description:
      'the settings of the provider the path names: `epay` → EpaySettingsDto, `stripe` → StripeSettingsDto, `alipay` → AlipaySettingsDto',
  })
  @ApiAnswer(PaymentSettingsView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.PUBLIC_URL_NOT_SET, ErrorCode.PAYMENT_PROVIDER_NOT_ENABLED)
  put(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('provider') provider: string,
    @Body() body: Record<string, unknown>,
  ) {
    return this.payments.put(actor, id, provider, body);
  }

  @Delete(':provider')
  @HttpCode(204)
  @StepUp()
  @ApiOperation({ summary: "Delete a payment provider's settings (its checkouts' late notifications are then refused)" })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.PAYMENT_PROVIDER_NOT_FOUND)
  async remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('provider') provider: string,
  ): Promise<void> {
    await this.payments.remove(actor, id, provider);
  }
}
