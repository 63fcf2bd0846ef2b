import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth, AdminRoles } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { API_KEY_SCOPES, KeyScope } from '../admin-kernel/api-key-scopes';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { ErrorCode } from '../core/errors/error-code';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ApiFailures, ApiPageAnswer } from '../http/openapi/api-contract';
import { ListCheckoutsQuery, ListPaymentRefusalsQuery } from './checkout.dto';
import { CheckoutView, PaymentRefusalView } from './checkout.view';
import { CheckoutsService } from './checkouts.service';

/** The storefront's checkouts and refused payment notifications, as the project's author sees them (decisions §26). */
@ApiTags('admin: payments')
@Envelope('admin')
@AdminAuth()
@AdminRoles('author', 'platform_admin')
@Controller('admin/v1/projects/:id')
export class CheckoutsAdminController {
  constructor(private readonly checkouts: CheckoutsService) {}

  @Get('checkouts')
  @KeyScope(API_KEY_SCOPES.ORDERS_READ)
  @ApiOperation({ summary: "List a project's storefront checkouts, newest first (refund_needed: paid, no cards: refund)" })
  @ApiPageAnswer(CheckoutView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: ListCheckoutsQuery) {
    return this.checkouts.list(actor, id, query);
  }

  @Get('payment-refusals')
  @KeyScope(API_KEY_SCOPES.ORDERS_READ)
  @ApiOperation({ summary: 'List the payment notifications refused for a project, newest first, with why' })
  @ApiPageAnswer(PaymentRefusalView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  refusals(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Query() query: ListPaymentRefusalsQuery,
  ) {
    return this.checkouts.listRefusals(actor, id, query);
  }
}
