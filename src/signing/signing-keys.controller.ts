import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { StepUp } from '../admin-kernel/step-up';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { Optional } from '../common/optional';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures } from '../http/openapi/api-contract';
import { SigningKeysService, SigningKeyView } from './signing-keys.service';

export class RotateSigningKeyDto {
  @ApiPropertyOptional({ description: 'seconds the previous key stays published (default 7 days)' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(365 * 86400)
  retire_after_seconds?: number;
}

@ApiTags('admin: projects')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/signing-keys')
export class SigningKeysController {
  constructor(private readonly keys: SigningKeysService) {}

  @Get()
  @ApiOperation({ summary: 'List the answer-signing keys a client program may pin (active and retiring)' })
  @ApiAnswer(
    {
      type: 'object',
      required: ['items'],
      properties: { items: { type: 'array', items: { $ref: getSchemaPath(SigningKeyView) } } },
    },
    { models: [SigningKeyView] },
  )
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string) {
    return this.keys.list(actor, id);
  }

  @Post('rotate')
  @ApiOperation({ summary: 'Rotate the answer-signing key; the previous one stays published while it retires' })
  @ApiAnswer(SigningKeyView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  @HttpCode(200)
  @StepUp()
  rotate(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: RotateSigningKeyDto) {
    return this.keys.rotate(actor, id, body.retire_after_seconds);
  }
}
