import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth, AdminRoles, AgentScope } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { API_KEY_SCOPES, KeyScope } from '../admin-kernel/api-key-scopes';
import { byPrincipal } from '../admin-kernel/rate-keys';
import { RateLimit } from '../http/throttling/route-rate.guard';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiPageAnswer } from '../http/openapi/api-contract';
import { CreateOrderDto, ListOrdersQuery, RefundDto } from './order.dto';
import { OrderView, OrderWithCardsView, RefundView } from './order.view';
import { OrdersService } from './orders.service';

/** Orders (decisions §19): what agents, shops and authors call to buy cards of a card type. */
@ApiTags('admin: orders')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/orders')
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /**
   * An agent pays the type's price less its discount, times `count`, from its balance, in the same
   * transaction that makes the cards; its parent earns the difference to its own price. An author
   * (or platform admin) orders for free. The same `order_id` again: 200 with the same order and cards.
   */
  @Post()
  @RateLimit('orders', byPrincipal)
  @AgentScope()
  @KeyScope(API_KEY_SCOPES.ORDERS_CREATE)
  @ApiOperation({ summary: 'Place an order: debit the price and make the cards, idempotent by order_id' })
  @ApiAnswer(OrderWithCardsView, { status: 201, description: 'Created' })
  @ApiAnswer(OrderWithCardsView, { status: 200, description: 'A replay of an earlier order with the same body' })
  @ApiFailures(
    ErrorCode.PROJECT_NOT_FOUND,
    ErrorCode.CARD_TYPE_NOT_FOUND,
    ErrorCode.CARD_TYPE_DISABLED,
    ErrorCode.INSUFFICIENT_BALANCE,
    ErrorCode.ORDER_CONFLICT,
  )
  async create(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Body() body: CreateOrderDto,
    @Res({ passthrough: true }) response: unknown,
  ): Promise<OrderWithCardsView> {
    const { order, created } = await this.orders.create(actor, id, body);
    this.adapterHost.httpAdapter.status(response, created ? 201 : 200);
    return order;
  }

  @Get()
  @AgentScope()
  @KeyScope(API_KEY_SCOPES.ORDERS_READ)
  @ApiOperation({ summary: "List a project's orders, newest first (an agent: its own)" })
  @ApiPageAnswer(OrderView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: ListOrdersQuery) {
    return this.orders.list(actor, id, query);
  }

  @Get(':orderId')
  @AgentScope()
  @KeyScope(API_KEY_SCOPES.ORDERS_READ)
  @ApiOperation({ summary: 'Read an order by its order_id, with its cards' })
  @ApiAnswer(OrderWithCardsView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.ORDER_NOT_FOUND)
  get(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Param('orderId') orderId: string) {
    return this.orders.get(actor, id, orderId);
  }

  /** Exactly once under any concurrency: a card is refunded by the one request that deletes it. */
  @Post(':orderId/refund')
  @HttpCode(200)
  @AdminRoles('author', 'platform_admin')
  @ApiOperation({
    summary: "Refund unused cards of an order: they are deleted, their price credited back, the parent's commission clawed back",
  })
  @ApiAnswer(RefundView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.ORDER_NOT_FOUND, ErrorCode.INSUFFICIENT_BALANCE)
  refund(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('orderId') orderId: string,
    @Body() body: RefundDto,
  ) {
    return this.orders.refund(actor, id, orderId, body);
  }
}
