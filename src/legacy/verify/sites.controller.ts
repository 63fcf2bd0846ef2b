import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../../admin-kernel/admin-principal';
import { IntIdParamPipe } from '../../common/int-id-param.pipe';
import { PageQuery } from '../../common/paging';
import { PROJECT_ID_PIPE } from '../../common/uuid-param.pipe';
import { Envelope } from '../../http/envelope/envelope.decorator';
import { ErrorCode } from '../../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiNoContent, ApiPageAnswer } from '../../http/openapi/api-contract';
import { SiteView } from './verify.view';
import { CreateSiteDto, UpdateSiteDto } from './sites.dto';
import { SitesService } from './sites.service';

const SITE_ID_PIPE = new IntIdParamPipe(ErrorCode.SITE_NOT_FOUND);

@ApiTags('admin: licence verification')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/sites')
export class SitesController {
  constructor(private readonly sites: SitesService) {}

  @Post()
  @ApiOperation({ summary: 'Authorize a site (domain or *.wildcard, optional licence and expiry)' })
  @ApiAnswer(SiteView, { status: 201 })
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.SITE_EXISTS)
  create(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: CreateSiteDto) {
    return this.sites.create(actor, id, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the authorized sites of a project' })
  @ApiPageAnswer(SiteView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: PageQuery) {
    return this.sites.list(actor, id, query);
  }

  @Get(':siteId')
  @ApiOperation({ summary: 'Read an authorized site' })
  @ApiAnswer(SiteView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.SITE_NOT_FOUND)
  get(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('siteId', SITE_ID_PIPE) siteId: number,
  ) {
    return this.sites.get(actor, id, siteId);
  }

  @Patch(':siteId')
  @ApiOperation({ summary: 'Change an authorized site' })
  @ApiAnswer(SiteView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.SITE_NOT_FOUND, ErrorCode.SITE_EXISTS)
  update(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('siteId', SITE_ID_PIPE) siteId: number,
    @Body() body: UpdateSiteDto,
  ) {
    return this.sites.update(actor, id, siteId, body);
  }

  @Delete(':siteId')
  @ApiOperation({ summary: 'Delete an authorized site' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.SITE_NOT_FOUND)
  @HttpCode(204)
  async remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('siteId', SITE_ID_PIPE) siteId: number,
  ): Promise<void> {
    await this.sites.remove(actor, id, siteId);
  }
}
