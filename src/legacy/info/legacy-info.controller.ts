import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../../access/client-call';
import { Envelope } from '../../http/envelope/envelope.decorator';
import { FORM_CONTENT_TYPE } from '../../http/content-type';
import { ApiAnswer } from '../../http/openapi/api-contract';
import { VersionCheck } from '../../versions/versions.service';
import { LegacyAnnouncement } from '../legacy-answers';
import { LegacyClient } from '../legacy-program.guard';
import { LegacyAppDto, LegacyVersionDto } from './legacy-info.dto';
import { LegacyInfoService } from './legacy-info.service';

/**
 * The older read-only legacy routes (spec "Legacy routes"; decisions §10): unsigned (decisions §3),
 * GET with the query string or POST with form fields, legacy envelope (`code: 1`). The legacy
 * program guard settles the content type and the `app` field for both methods.
 */
@ApiTags('client: legacy')
@Envelope('legacy')
@LegacyClient()
@Controller('api')
export class LegacyInfoController {
  constructor(private readonly info: LegacyInfoService) {}

  @Get('announcement')
  @ApiOperation({ summary: "Read the program's latest announcement (query)" })
  @ApiAnswer(LegacyAnnouncement)
  announcementByGet(@Caller() call: ClientCall, @Query() _query: LegacyAppDto) {
    return this.info.announcement(call);
  }

  @Post('announcement')
  @ApiOperation({ summary: "Read the program's latest announcement (form)" })
  @ApiAnswer(LegacyAnnouncement)
  @ApiConsumes(FORM_CONTENT_TYPE)
  announcementByPost(@Caller() call: ClientCall, @Body() _body: LegacyAppDto) {
    return this.info.announcement(call);
  }

  @Get('latest_version')
  @ApiOperation({ summary: "Compare the client's version with the program's latest (query)" })
  @ApiAnswer(VersionCheck)
  latestVersionByGet(@Caller() call: ClientCall, @Query() query: LegacyVersionDto) {
    return this.info.latestVersion(call, query.version as string);
  }

  @Post('latest_version')
  @ApiOperation({ summary: "Compare the client's version with the program's latest (form)" })
  @ApiAnswer(VersionCheck)
  @ApiConsumes(FORM_CONTENT_TYPE)
  latestVersionByPost(@Caller() call: ClientCall, @Body() body: LegacyVersionDto) {
    return this.info.latestVersion(call, body.version as string);
  }
}
