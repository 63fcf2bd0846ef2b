import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiProduces, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../admin-auth/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../../admin-auth/admin-principal';
import { UuidParamPipe } from '../../common/uuid-param.pipe';
import { Envelope } from '../../core/envelope/envelope.decorator';
import { CreateCardsDto, ExportCardsQuery, ListCardsQuery, UpdateCardDto } from './card-admin.dto';
import { CardsAdminService } from './cards-admin.service';
import { IDEMPOTENCY_KEY_HEADER, IdempotencyKey } from './idempotency-key.decorator';
import { IntIdParamPipe } from '../../common/int-id-param.pipe';

@ApiTags('admin: cards')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/cards')
export class CardsAdminController {
  constructor(private readonly cards: CardsAdminService) {}

  @Post()
  @ApiHeader({ name: IDEMPOTENCY_KEY_HEADER, required: false, description: 'a retry with the same key returns the same batch' })
  create(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', UuidParamPipe) id: string,
    @Body() body: CreateCardsDto,
    @IdempotencyKey() idempotencyKey: string | undefined,
  ) {
    return this.cards.createBatch(actor, id, body, idempotencyKey);
  }

  @Get()
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', UuidParamPipe) id: string, @Query() query: ListCardsQuery) {
    return this.cards.list(actor, id, query);
  }

  /** Declared before `:cardId` so that the router never reads `export.csv` as a card id. */
  @Get('export.csv')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Content-Disposition', 'attachment; filename="cards.csv"')
  @ApiProduces('text/csv')
  exportCsv(@CurrentAdmin() actor: AdminPrincipal, @Param('id', UuidParamPipe) id: string, @Query() query: ExportCardsQuery) {
    return this.cards.exportCsv(actor, id, query);
  }

  @Get(':cardId')
  get(@CurrentAdmin() actor: AdminPrincipal, @Param('id', UuidParamPipe) id: string, @Param('cardId', IntIdParamPipe) cardId: number) {
    return this.cards.get(actor, id, cardId);
  }

  @Patch(':cardId')
  update(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', UuidParamPipe) id: string,
    @Param('cardId', IntIdParamPipe) cardId: number,
    @Body() body: UpdateCardDto,
  ) {
    return this.cards.update(actor, id, cardId, body);
  }

  @Delete(':cardId')
  @HttpCode(204)
  async remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', UuidParamPipe) id: string,
    @Param('cardId', IntIdParamPipe) cardId: number,
  ): Promise<void> {
    await this.cards.remove(actor, id, cardId);
  }

  @Delete(':cardId/devices/:machine')
  @HttpCode(204)
  async unbind(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', UuidParamPipe) id: string,
    @Param('cardId', IntIdParamPipe) cardId: number,
    @Param('machine') machine: string,
  ): Promise<void> {
    await this.cards.unbindDevice(actor, id, cardId, machine);
  }
}
