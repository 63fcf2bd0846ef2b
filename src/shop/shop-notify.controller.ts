import { applyDecorators, Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AcceptsBody } from '../http/content-type';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ClientContext, RequestContext } from '../http/request-context';
import { RateLimit } from '../http/throttling/route-rate.guard';
import { PaymentNotificationsService } from './payment-notifications.service';

type AdapterRequest = { method?: string; headers: Record<string, string | string[] | undefined> };

/** A notification answered in plain text (epay's, Alipay's): `success` or `fail`. */
const TextNotification = (summary: string) =>
  applyDecorators(
    RateLimit('shop-notify'),
    ApiOperation({ summary }),
    ApiProduces('text/plain'),
    ApiResponse({
      status: 200,
      description: '`success` when the payment was taken (now or before), `fail` otherwise (the gateway retries)',
      content: { 'text/plain': { schema: { type: 'string', enum: ['success', 'fail'] } } },
    }),
  );

/** The same, posted as a form. */
const FormNotification = (summary: string) => applyDecorators(HttpCode(200), AcceptsBody('form'), TextNotification(summary));

/**
 * Where payment gateways say a checkout was paid (decisions §26): one route per provider, answered
 * in the provider's own protocol (epay: plain text), never in an envelope. The signature is the
 * provider's to check (PaymentNotificationsService); the route itself takes anyone, limited per address.
 */
@ApiTags('storefront')
@Envelope('admin')
@DeclareAuthScheme('none')
@Controller('shop/notify')
export class ShopNotifyController {
  constructor(
    private readonly notifications: PaymentNotificationsService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @Get('epay/:project_id')
  @TextNotification('易支付 (epay) payment notification, as a GET with the signed fields in the query')
  epayGet(
    @Param('project_id') projectId: string,
    @Query() query: Record<string, unknown>,
    @Req() request: AdapterRequest,
    @Res({ passthrough: true }) response: unknown,
    @ClientContext() context: RequestContext,
  ): Promise<string> {
    return this.answer('epay', projectId, { method: 'GET', query, body: undefined, headers: request.headers }, response, context);
  }

  @Post('epay/:project_id')
  @FormNotification('易支付 (epay) payment notification, as a form POST')
  epayPost(
    @Param('project_id') projectId: string,
    @Query() query: Record<string, unknown>,
    @Body() body: Record<string, unknown>,
    @Req() request: AdapterRequest,
    @Res({ passthrough: true }) response: unknown,
    @ClientContext() context: RequestContext,
  ): Promise<string> {
    return this.answer('epay', projectId, { method: 'POST', query, body, headers: request.headers }, response, context);
  }

  @Post('alipay/:project_id')
  @FormNotification('Alipay (电脑网站支付) asynchronous notification, a form POST signed RSA2')
  alipayPost(
    @Param('project_id') projectId: string,
    @Query() query: Record<string, unknown>,
    @Body() body: Record<string, unknown>,
    @Req() request: AdapterRequest,
    @Res({ passthrough: true }) response: unknown,
    @ClientContext() context: RequestContext,
  ): Promise<string> {
    return this.answer('alipay', projectId, { method: 'POST', query, body, headers: request.headers }, response, context);
  }

  @Post('stripe/:project_id')
  @HttpCode(200)
  @AcceptsBody('json')
  @RateLimit('shop-notify')
  @ApiOperation({
    summary: 'Stripe webhook: a `checkout.session.completed` event, signed in `Stripe-Signature` over the raw body',
    description:
      'Another event type, or a session not yet paid, is acknowledged (200) and changes nothing; a bad or stale signature is a 400, which Stripe retries.',
  })
  @ApiResponse({
    status: 200,
    description: 'taken (now or before), or an event that is no payment',
    content: { 'application/json': { schema: { type: 'object', properties: { received: { type: 'boolean', enum: [true] } } } } },
  })
  @ApiResponse({
    status: 400,
    description: 'refused (recorded in payment-refusals); Stripe sends it again',
    content: { 'application/json': { schema: { type: 'object', properties: { received: { type: 'boolean', enum: [false] } } } } },
  })
  stripePost(
    @Param('project_id') projectId: string,
    @Body() body: Record<string, unknown>,
    @Req() request: AdapterRequest & { rawBody?: Buffer; raw?: { rawBody?: Buffer } },
    @Res({ passthrough: true }) response: unknown,
    @ClientContext() context: RequestContext,
  ): Promise<string> {
    // The signature covers the bytes as sent: Fastify keeps them on its request, Express on the raw one.
    const rawBody = request.rawBody ?? request.raw?.rawBody;
    const notification = { method: 'POST', query: {}, body, headers: request.headers, rawBody };
    return this.answer('stripe', projectId, notification, response, context);
  }

  private async answer(
    provider: string,
    projectId: string,
    notification: Parameters<PaymentNotificationsService['notify']>[2],
    response: unknown,
    context: RequestContext,
  ): Promise<string> {
    const answer = await this.notifications.notify(provider, projectId, notification, context.clientIp);
    const adapter = this.adapterHost.httpAdapter;
    adapter.setHeader(response, 'Content-Type', answer.contentType);
    adapter.status(response, answer.status);
    return answer.body;
  }
}
