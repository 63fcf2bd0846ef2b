import { Body, Controller, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../access/client-call';
import { Envelope } from '../http/envelope/envelope.decorator';
import { RequiresHttps } from '../http/https-required.guard';
import { ClientReply } from '../http/envelope/render';
import { ApiAnswer } from '../http/openapi/api-contract';
import { SdkSigned } from '../standard/hmac.guard';
import { VersionCheckDto } from '../versions/version.dto';
import { VersionCheck, VersionsService } from '../versions/versions.service';

/** The SDK's version check: signed JSON `{app, version}` (decisions §3, §9). */
@ApiTags('client: SDK v1')
@Envelope('standard')
@RequiresHttps()
@Controller('api/v1/apps')
export class VersionCheckController {
  constructor(private readonly versions: VersionsService) {}

  @Post('version')
  @SdkSigned()
  @ApiOperation({ summary: "Compare the client's version with the program's latest" })
  @ApiAnswer(VersionCheck)
  async check(@Caller() call: ClientCall, @Body() body: VersionCheckDto): Promise<ClientReply> {
    return { message: 'Version checked', data: await this.versions.clientCheck(call, body.version) };
  }
}
