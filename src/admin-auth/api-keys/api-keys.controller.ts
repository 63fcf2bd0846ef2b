import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Envelope } from '../../http/envelope/envelope.decorator';
import { ErrorCode } from '../../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiListAnswer, ApiNoContent } from '../../http/openapi/api-contract';
import { AdminAuth, AgentScope } from '../../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../../admin-kernel/admin-principal';
import { StepUp } from '../../admin-kernel/step-up';
import { ApiKeyView, CreateApiKeyDto, CreatedApiKeyView } from './api-key.dto';
import { ApiKeysService } from './api-keys.service';

const KEY_ID = new UuidParamPipe(ErrorCode.API_KEY_NOT_FOUND);

/** The signed-in account's own API keys. No @KeyScope: a key can neither make nor see keys. */
@ApiTags('admin: api keys')
@Envelope('admin')
@AdminAuth()
@AgentScope()
@Controller('admin/v1/api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @StepUp()
  @ApiOperation({ summary: 'Create an API key: the answer carries the key this once, only its hash is kept' })
  @ApiAnswer(CreatedApiKeyView, { status: 201 })
  @ApiFailures(ErrorCode.BAD_REQUEST, ErrorCode.PROJECT_NOT_FOUND)
  create(@CurrentAdmin() actor: AdminPrincipal, @Body() body: CreateApiKeyDto) {
    return this.keys.create(actor, body);
  }

  @Get()
  @ApiOperation({ summary: "The account's API keys, newest first, revoked ones included (never the key itself)" })
  @ApiListAnswer(ApiKeyView)
  async list(@CurrentAdmin() actor: AdminPrincipal) {
    const items = await this.keys.list(actor);
    return { items, total: items.length };
  }

  @Delete(':keyId')
  @ApiOperation({ summary: 'Revoke an API key: it stops working at once' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.API_KEY_NOT_FOUND)
  @HttpCode(204)
  async revoke(@CurrentAdmin() actor: AdminPrincipal, @Param('keyId', KEY_ID) id: string): Promise<void> {
    await this.keys.revoke(actor, id);
  }
}
