import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AcceptsBody } from '../http/content-type';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ClientContext, RequestContext } from '../http/request-context';
import { RateLimit } from '../http/throttling/route-rate.guard';
import { PaymentNotificationsService } from './payment-notifications.service';

type AdapterRequest = { method?: string; headers: Record<string, string | string[] | undefined> };

const TEXT_ANSWER = {
  status: 200,
  description: '`success` when the payment was taken (now or before), `fail` otherwise (the gateway retries)',
};

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
  @RateLimit('shop-notify')
  @ApiOperation({ summary: '易支付 (epay) payment notification, as a GET with the signed fields in the query' })
  @ApiProduces('text/plain')
  @ApiResponse({ ...TEXT_ANSWER, content: { 'text/plain': { schema: { type: 'string', enum: ['success', 'fail'] } } } })
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
  @HttpCode(200)
  @AcceptsBody('form')
  @RateLimit('shop-notify')
  @ApiOperation({ summary: '易支付 (epay) payment notification, as a form POST' })
  @ApiProduces('text/plain')
  @ApiResponse({ ...TEXT_ANSWER, content: { 'text/plain': { schema: { type: 'string', enum: ['success', 'fail'] } } } })
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
  @HttpCode(200)
  @AcceptsBody('form')
  @RateLimit('shop-notify')
  @ApiOperation({ summary: 'Alipay (电脑网站支付) asynchronous notification, a form POST signed RSA2' })
  @ApiProduces('text/plain')
  @ApiResponse({ ...TEXT_ANSWER, content: { 'text/plain': { schema: { type: 'string', enum: ['success', 'fail'] } } } })
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
