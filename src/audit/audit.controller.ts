import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ApiPageAnswer } from '../http/openapi/api-contract';
import { AuditQuery, AuditEntryView } from './audit.dto';
import { AuditTrail } from './audit-trail.service';

/** Read only: the trail has no route that changes or removes a row. */
@ApiTags('admin: audit')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/audit')
export class AuditController {
  constructor(private readonly trail: AuditTrail) {}

  @Get()
  @ApiOperation({
    summary: "The admin audit trail, newest first (platform admin: all; author: its projects' and its own account's)",
  })
  @ApiPageAnswer(AuditEntryView)
  list(@CurrentAdmin() actor: AdminPrincipal, @Query() query: AuditQuery) {
    return this.trail.list(actor, query);
  }

  @Get('export.csv')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Content-Disposition', 'attachment; filename="audit.csv"')
  @ApiProduces('text/csv')
  @ApiOperation({ summary: 'Export the audit rows a filter matches as CSV (paging ignored)' })
  @ApiResponse({ status: 200, description: 'CSV with a header row', content: { 'text/csv': { schema: { type: 'string' } } } })
  exportCsv(@CurrentAdmin() actor: AdminPrincipal, @Query() query: AuditQuery) {
    return this.trail.exportCsv(actor, query);
  }
}
