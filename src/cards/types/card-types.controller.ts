import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../admin-kernel/admin-auth.decorator';
import { API_KEY_SCOPES, KeyScope } from '../../admin-kernel/api-key-scopes';
import { AdminPrincipal, CurrentAdmin } from '../../admin-kernel/admin-principal';
import { IntIdParamPipe } from '../../common/int-id-param.pipe';
import { PageQuery } from '../../common/paging';
import { PROJECT_ID_PIPE } from '../../common/uuid-param.pipe';
import { Envelope } from '../../http/envelope/envelope.decorator';
import { ErrorCode } from '../../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiNoContent, ApiPageAnswer } from '../../http/openapi/api-contract';
import { CreateCardTypeDto, UpdateCardTypeDto } from './card-type.dto';
import { CardTypeView } from './card-type.view';
import { CardTypesService } from './card-types.service';

const TYPE_ID_PIPE = new IntIdParamPipe(ErrorCode.CARD_TYPE_NOT_FOUND);

@ApiTags('admin: card types')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/card-types')
export class CardTypesController {
  constructor(private readonly types: CardTypesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a card type' })
  @ApiAnswer(CardTypeView, { status: 201 })
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.CARD_TYPE_NAME_TAKEN)
  create(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: CreateCardTypeDto) {
    return this.types.create(actor, id, body);
  }

  @KeyScope(API_KEY_SCOPES.CARD_TYPES_READ)
  @Get()
  @ApiOperation({ summary: 'List the card types of a project' })
  @ApiPageAnswer(CardTypeView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: PageQuery) {
    return this.types.list(actor, id, query);
  }

  @KeyScope(API_KEY_SCOPES.CARD_TYPES_READ)
  @Get(':typeId')
  @ApiOperation({ summary: 'Read a card type' })
  @ApiAnswer(CardTypeView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.CARD_TYPE_NOT_FOUND)
  get(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('typeId', TYPE_ID_PIPE) typeId: number,
  ) {
    return this.types.get(actor, id, typeId);
  }

  @Patch(':typeId')
  @ApiOperation({
    summary: 'Change a card type (rules apply to cards made afterwards; features to every card of the type at once)',
  })
  @ApiAnswer(CardTypeView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.CARD_TYPE_NOT_FOUND, ErrorCode.CARD_TYPE_NAME_TAKEN)
  update(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('typeId', TYPE_ID_PIPE) typeId: number,
    @Body() body: UpdateCardTypeDto,
  ) {
    return this.types.update(actor, id, typeId, body);
  }

  @Delete(':typeId')
  @ApiOperation({ summary: 'Delete a card type no card or batch was made from' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.CARD_TYPE_NOT_FOUND, ErrorCode.CARD_TYPE_IN_USE)
  @HttpCode(204)
  async remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('typeId', TYPE_ID_PIPE) typeId: number,
  ): Promise<void> {
    await this.types.remove(actor, id, typeId);
  }
}
