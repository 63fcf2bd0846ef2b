import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { API_KEY_SCOPES, KeyScope } from '../admin-kernel/api-key-scopes';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { PageQuery } from '../common/paging';
import { PROJECT_ID_PIPE, UuidParamPipe } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiListAnswer, ApiNoContent, ApiPageAnswer } from '../http/openapi/api-contract';
import { CreateWebhookDto, UpdateWebhookDto, WebhookDeliveryView, WebhookView } from './webhook.dto';
import { WebhooksService } from './webhooks.service';

const WEBHOOK_ID = new UuidParamPipe(ErrorCode.WEBHOOK_NOT_FOUND);
const DELIVERY_ID = new UuidParamPipe(ErrorCode.WEBHOOK_DELIVERY_NOT_FOUND);

@ApiTags('admin: webhooks')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @KeyScope(API_KEY_SCOPES.WEBHOOKS_READ)
  @Get()
  @ApiOperation({ summary: "List the project's webhook endpoints" })
  @ApiListAnswer(WebhookView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string) {
    return this.webhooks.list(actor, id);
  }

  @KeyScope(API_KEY_SCOPES.WEBHOOKS_WRITE)
  @Post()
  @ApiOperation({ summary: 'Add a webhook endpoint (private and loopback targets only where the platform allows them)' })
  @ApiAnswer(WebhookView, { status: 201 })
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.WEBHOOK_TARGET_REFUSED, ErrorCode.BAD_REQUEST)
  create(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: CreateWebhookDto) {
    return this.webhooks.create(actor, id, body);
  }

  @KeyScope(API_KEY_SCOPES.WEBHOOKS_READ)
  @Get(':wid')
  @ApiOperation({ summary: 'One webhook endpoint' })
  @ApiAnswer(WebhookView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.WEBHOOK_NOT_FOUND)
  get(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Param('wid', WEBHOOK_ID) wid: string) {
    return this.webhooks.get(actor, id, wid);
  }

  @KeyScope(API_KEY_SCOPES.WEBHOOKS_WRITE)
  @Patch(':wid')
  @ApiOperation({ summary: 'Change a webhook endpoint; enabling it again clears a disabling for failures' })
  @ApiAnswer(WebhookView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.WEBHOOK_NOT_FOUND, ErrorCode.WEBHOOK_TARGET_REFUSED, ErrorCode.BAD_REQUEST)
  update(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('wid', WEBHOOK_ID) wid: string,
    @Body() body: UpdateWebhookDto,
  ) {
    return this.webhooks.update(actor, id, wid, body);
  }

  @KeyScope(API_KEY_SCOPES.WEBHOOKS_WRITE)
  @Delete(':wid')
  @ApiOperation({ summary: 'Delete a webhook endpoint and its delivery log' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.WEBHOOK_NOT_FOUND)
  @HttpCode(204)
  async remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('wid', WEBHOOK_ID) wid: string,
  ) {
    await this.webhooks.remove(actor, id, wid);
  }

  @KeyScope(API_KEY_SCOPES.WEBHOOKS_READ)
  @Get(':wid/deliveries')
  @ApiOperation({
    summary: "The endpoint's deliveries, newest first, each with its attempts (status, duration, response excerpt)",
  })
  @ApiPageAnswer(WebhookDeliveryView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.WEBHOOK_NOT_FOUND)
  deliveries(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('wid', WEBHOOK_ID) wid: string,
    @Query() query: PageQuery,
  ) {
    return this.webhooks.deliveries(actor, id, wid, query);
  }

  @KeyScope(API_KEY_SCOPES.WEBHOOKS_WRITE)
  @Post(':wid/deliveries/:did/redeliver')
  @ApiOperation({ summary: 'Send a delivery again now' })
  @ApiAnswer(WebhookDeliveryView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.WEBHOOK_NOT_FOUND, ErrorCode.WEBHOOK_DELIVERY_NOT_FOUND)
  @HttpCode(200)
  redeliver(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('wid', WEBHOOK_ID) wid: string,
    @Param('did', DELIVERY_ID) did: string,
  ) {
    return this.webhooks.redeliver(actor, id, wid, did);
  }

  @KeyScope(API_KEY_SCOPES.WEBHOOKS_WRITE)
  @Post(':wid/test')
  @ApiOperation({ summary: 'Send a webhook.test event to this endpoint' })
  @ApiAnswer(WebhookDeliveryView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.WEBHOOK_NOT_FOUND)
  @HttpCode(200)
  test(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Param('wid', WEBHOOK_ID) wid: string) {
    return this.webhooks.test(actor, id, wid);
  }
}
