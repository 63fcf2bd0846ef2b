import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ClientProgram } from '../access/client-program';
import { Envelope } from '../core/envelope/envelope.decorator';
import { HmacSigned, SignedProgram } from '../standard/hmac.guard';
import { VersionCheckDto } from './version.dto';
import { VersionsService } from './versions.service';

/** The SDK's version check: signed JSON `{app, version}` (decisions §3, §9). */
@ApiTags('client: SDK v1')
@Envelope('standard')
@Controller('api/v1/apps')
export class VersionCheckController {
  constructor(private readonly versions: VersionsService) {}

  @Post('version')
  @HmacSigned('json')
  check(@SignedProgram() program: ClientProgram, @Body() body: VersionCheckDto) {
    return this.versions.sdkCheck(program, body.version);
  }
}
