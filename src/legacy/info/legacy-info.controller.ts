import { Controller, Get, Post, Req } from '@nestjs/common';
import { ApiConsumes, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Envelope } from '../../core/envelope/envelope.decorator';
import { DeclareAuthScheme } from '../../core/http/auth-scheme';
import { FORM_CONTENT_TYPE, requireContentType } from '../../core/http/content-type';
import { ClientReply } from '../../core/envelope/render';
import { LegacyInfoService } from './legacy-info.service';
import { LegacyProgramResolver } from './legacy-program';

type Fields = Record<string, unknown>;
interface LegacyRequest {
  headers?: Record<string, unknown>;
  query?: Fields;
  body?: Fields;
}

/** A GET reads the query string; a POST reads form fields (and only form fields). */
function getFields(request: LegacyRequest): Fields {
  return request.query ?? {};
}
function postFields(request: LegacyRequest): Fields {
  requireContentType(request, FORM_CONTENT_TYPE);
  return request.body ?? {};
}

/**
 * The older read-only legacy routes (spec "Legacy routes"; decisions §10): unsigned (decisions §3),
 * GET with the query string or POST with form fields, legacy envelope (`code: 1`).
 */
@ApiTags('client: legacy')
@Envelope('legacy')
@DeclareAuthScheme('none')
@Controller('api')
export class LegacyInfoController {
  constructor(
    private readonly info: LegacyInfoService,
    private readonly programs: LegacyProgramResolver,
  ) {}

  @Get('announcement')
  @ApiQuery({ name: 'app', description: 'public program ID (8 digits)' })
  announcementByGet(@Req() request: LegacyRequest) {
    return this.announcement(getFields(request));
  }

  @Post('announcement')
  @ApiConsumes(FORM_CONTENT_TYPE)
  announcementByPost(@Req() request: LegacyRequest) {
    return this.announcement(postFields(request));
  }

  @Get('latest_version')
  @ApiQuery({ name: 'app', description: 'public program ID (8 digits)' })
  @ApiQuery({ name: 'version', description: 'the running version, e.g. 1.2.0' })
  latestVersionByGet(@Req() request: LegacyRequest) {
    return this.latestVersion(getFields(request));
  }

  @Post('latest_version')
  @ApiConsumes(FORM_CONTENT_TYPE)
  latestVersionByPost(@Req() request: LegacyRequest) {
    return this.latestVersion(postFields(request));
  }

  private async announcement(fields: Fields): Promise<ClientReply> {
    return this.info.announcement(await this.programs.resolve(fields));
  }

  private async latestVersion(fields: Fields): Promise<ClientReply> {
    const program = await this.programs.resolve(fields);
    return this.info.latestVersion(program, fields.version as string);
  }
}
