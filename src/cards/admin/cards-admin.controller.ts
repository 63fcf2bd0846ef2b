import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiBody, ApiConsumes, ApiHeader, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { IncomingMessage } from 'node:http';
import { AdminAuth } from '../../admin-kernel/admin-auth.decorator';
import { API_KEY_SCOPES, KeyScope } from '../../admin-kernel/api-key-scopes';
import { StepUp } from '../../admin-kernel/step-up';
import { AdminPrincipal, CurrentAdmin } from '../../admin-kernel/admin-principal';
import { PROJECT_ID_PIPE } from '../../common/uuid-param.pipe';
import { Envelope } from '../../http/envelope/envelope.decorator';
import { ErrorCode } from '../../core/errors/error-code';
import { AcceptsBody, CSV_CONTENT_TYPE } from '../../http/content-type';
import { BulkCardsDto } from './card-bulk.dto';
import { CreateCardsDto, UpdateCardDto } from './card-admin.dto';
import { ExportCardsCsvQuery, ExportCardsQuery, ImportCardsQuery, ListCardsQuery } from './card-queries.dto';
import {
  IMPORT_COLUMNS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_CELL_CHARS,
  IMPORT_MAX_DEVICES_CHARS,
  IMPORT_MAX_ROW_CHARS,
  IMPORT_MAX_ROWS,
} from './import-format';
import { IMPORTS_PER_AUTHOR, IMPORTS_PER_PROCESS } from './import-slots';
import { CardBatchesService } from './card-batches.service';
import { CardBatchView, CardView } from './card.view';
import { BulkResult } from './cards-bulk';
import { ImportDone, ImportReport } from './import-answers';
import { ApiAnswer, ApiFailures, ApiNoContent, ApiPageAnswer } from '../../http/openapi/api-contract';
import { CardImportsService } from './card-imports.service';
import { CardsAdminService } from './cards-admin.service';
import { IDEMPOTENCY_KEY_HEADER, IdempotencyKey } from './idempotency-key.decorator';
import { IntIdParamPipe } from '../../common/int-id-param.pipe';

const CARD_ID_PIPE = new IntIdParamPipe(ErrorCode.CARD_NOT_FOUND);

/** Express hands over the Node request itself, Fastify wraps it as `raw`; both leave text/csv unread. */
type AdapterRequest = IncomingMessage & { raw?: IncomingMessage };

@ApiTags('admin: cards')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/cards')
export class CardsAdminController {
  constructor(
    private readonly cards: CardsAdminService,
    private readonly batches: CardBatchesService,
    private readonly imports: CardImportsService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @KeyScope(API_KEY_SCOPES.CARDS_WRITE)
  @Post()
  @ApiOperation({ summary: 'Generate a batch of cards' })
  @ApiAnswer(CardBatchView, { status: 201 })
  @ApiFailures(
    ErrorCode.PROJECT_NOT_FOUND,
    ErrorCode.IDEMPOTENCY_KEY_REUSED,
    ErrorCode.CARD_TYPE_NOT_FOUND,
    ErrorCode.CARD_TYPE_DISABLED,
  )
  @ApiHeader({ name: IDEMPOTENCY_KEY_HEADER, required: false, description: 'a retry with the same key returns the same batch' })
  create(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Body() body: CreateCardsDto,
    @IdempotencyKey() idempotencyKey: string | undefined,
  ) {
    return this.batches.createBatch(actor, id, body, idempotencyKey);
  }

  @KeyScope(API_KEY_SCOPES.CARDS_READ)
  @Get()
  @ApiOperation({ summary: 'List the cards of a project, filtered and paged' })
  @ApiPageAnswer(CardView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: ListCardsQuery) {
    return this.cards.list(actor, id, query);
  }

  /** Declared before `:cardId` so that the router never reads `export.csv` as a card id. */
  @KeyScope(API_KEY_SCOPES.CARDS_READ)
  @Get('export.csv')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Content-Disposition', 'attachment; filename="cards.csv"')
  @ApiProduces('text/csv')
  @ApiOperation({ summary: 'Export the cards a filter matches as CSV (every field; format=excel for a spreadsheet)' })
  @ApiResponse({ status: 200, description: 'CSV with a header row', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  exportCsv(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Query() query: ExportCardsCsvQuery,
  ) {
    const { format, ...filters } = query;
    return this.cards.exportCsv(actor, id, filters, format ?? 'data');
  }

  /** The keys alone of the cards a filter matches, one a line; declared before `:cardId` like the CSV. */
  @KeyScope(API_KEY_SCOPES.CARDS_READ)
  @Get('export.txt')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Content-Disposition', 'attachment; filename="cards.txt"')
  @ApiProduces('text/plain')
  @ApiOperation({ summary: 'Export the keys of the cards a filter matches, one a line (CRLF), oldest first' })
  @ApiResponse({ status: 200, description: 'one card key a line', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  exportTxt(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: ExportCardsQuery) {
    return this.cards.exportCsv(actor, id, query, 'txt');
  }

  /** Declared before `:cardId` routes, like the export. Answers `{action, matched, changed}`. */
  @KeyScope(API_KEY_SCOPES.CARDS_WRITE)
  @Post('bulk')
  @HttpCode(200)
  @ApiOperation({ summary: 'Apply one action to many cards: by ids (at most 10,000) or by a filter of the list criteria' })
  @ApiAnswer(BulkResult)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.MATCHING_CARDS_NOT_FOUND)
  @StepUp((request) => (request.body as { action?: unknown } | undefined)?.action === 'delete')
  bulk(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: BulkCardsDto) {
    return this.cards.bulk(actor, id, body);
  }

  /** A CSV of existing codes: 201 `{batch_id, rows, imported}`; `?dry_run=true` answers 200 with the report only. */
  @KeyScope(API_KEY_SCOPES.CARDS_WRITE)
  @Post('import')
  @AcceptsBody('csv')
  @ApiConsumes(CSV_CONTENT_TYPE)
  @ApiBody({
    schema: {
      type: 'string',
      description:
        `header row with columns among ${IMPORT_COLUMNS.join(', ')}; at most ${IMPORT_MAX_BYTES} bytes and ${IMPORT_MAX_ROWS} rows; ` +
        `a cell at most ${IMPORT_MAX_CELL_CHARS} characters (devices ${IMPORT_MAX_DEVICES_CHARS}), a row ${IMPORT_MAX_ROW_CHARS} besides its devices`,
    },
  })
  @ApiQuery({ name: 'dry_run', required: false, type: Boolean })
  @ApiQuery({
    name: 'stock',
    required: false,
    type: Boolean,
    description: "with card_type_id: the cards become the type's unsold stock, which the storefront sells",
  })
  @ApiQuery({
    name: 'card_type_id',
    required: false,
    type: 'integer',
    description: "the cards' card type: its rules fill absent columns",
  })
  @ApiOperation({
    summary: 'Import existing card codes from CSV, all or nothing',
    description:
      'With `dry_run=true` the answer is the report of every problem (200) and nothing is written. A cell or row past its cap stops the ' +
      `import at once (400 naming the line). At most ${IMPORTS_PER_AUTHOR} imports (dry runs included) of one account and ` +
      `${IMPORTS_PER_PROCESS} of the service run at once; beyond, 429. The cards appear only once every row is in.`,
  })
  @ApiAnswer(ImportDone, { status: 201, description: 'Imported' })
  @ApiAnswer(ImportReport, { status: 200, description: 'The dry run report' })
  @ApiFailures(
    ErrorCode.PROJECT_NOT_FOUND,
    ErrorCode.CARD_IMPORT_INVALID,
    ErrorCode.FILE_TOO_LARGE,
    ErrorCode.RATE_LIMITED,
    ErrorCode.CARD_TYPE_NOT_FOUND,
    ErrorCode.CARD_TYPE_DISABLED,
  )
  async importCsv(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Query() query: ImportCardsQuery,
    @Req() request: AdapterRequest,
    @Res({ passthrough: true }) response: unknown,
  ) {
    const answer = await this.imports.importCsv(
      actor,
      id,
      request.raw ?? request,
      query.dry_run === true,
      query.card_type_id,
      query.stock,
    );
    this.adapterHost.httpAdapter.status(response, answer.dry_run ? 200 : 201);
    return answer;
  }

  @KeyScope(API_KEY_SCOPES.CARDS_READ)
  @Get(':cardId')
  @ApiOperation({ summary: 'Read a card with its devices' })
  @ApiAnswer(CardView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.CARD_NOT_FOUND)
  get(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('cardId', CARD_ID_PIPE) cardId: number,
  ) {
    return this.cards.get(actor, id, cardId);
  }

  @KeyScope(API_KEY_SCOPES.CARDS_WRITE)
  @Patch(':cardId')
  @ApiOperation({ summary: 'Change a card: status, expiry, uses, limits, note' })
  @ApiAnswer(CardView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.CARD_NOT_FOUND)
  update(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('cardId', CARD_ID_PIPE) cardId: number,
    @Body() body: UpdateCardDto,
  ) {
    return this.cards.update(actor, id, cardId, body);
  }

  @KeyScope(API_KEY_SCOPES.CARDS_WRITE)
  @Delete(':cardId')
  @ApiOperation({ summary: 'Delete a card' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.CARD_NOT_FOUND)
  @HttpCode(204)
  async remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('cardId', CARD_ID_PIPE) cardId: number,
  ): Promise<void> {
    await this.cards.remove(actor, id, cardId);
  }

  @KeyScope(API_KEY_SCOPES.CARDS_WRITE)
  @Delete(':cardId/devices/:machine')
  @ApiOperation({ summary: 'Unbind a device from a card (no deduction: the author decides)' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.CARD_NOT_FOUND, ErrorCode.CARD_DEVICE_NOT_FOUND)
  @HttpCode(204)
  async unbind(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('cardId', CARD_ID_PIPE) cardId: number,
    @Param('machine') machine: string,
  ): Promise<void> {
    await this.cards.unbindDevice(actor, id, cardId, machine);
  }
}
