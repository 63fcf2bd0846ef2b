import { Controller, Get, Param, Query, Req, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { UuidParamPipe } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiFailures } from '../http/openapi/api-contract';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { attachmentDisposition } from './file-names';
import { FilesService } from './files.service';

const FILE_ID_PIPE = new UuidParamPipe(ErrorCode.FILE_NOT_FOUND);

/** `GET /api/download/{id}?expires=…&sig=…`: only an address the service issued works (decisions §9). */
@ApiTags('client: legacy')
@Envelope('legacy')
@Controller('api/download')
export class DownloadController {
  constructor(private readonly files: FilesService) {}

  @Get(':id')
  @DeclareAuthScheme('signed-url')
  @ApiProduces('application/octet-stream')
  @ApiOperation({ summary: 'Download a file through an address the service issued (HEAD: the headers only, not counted)' })
  @ApiResponse({
    status: 200,
    description: "The file's bytes",
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiFailures(ErrorCode.FILE_NOT_FOUND)
  @ApiQuery({ name: 'expires', type: 'integer', description: 'Unix seconds, as issued' })
  @ApiQuery({ name: 'sig', type: String, description: 'lowercase hex HMAC-SHA256, as issued' })
  async download(
    @Param('id', FILE_ID_PIPE) id: string,
    @Query('expires') expires: unknown,
    @Query('sig') sig: unknown,
    @Req() request: { method: string },
  ): Promise<StreamableFile> {
    // HEAD (answered by the GET route on both adapters) shows the headers without counting a download.
    const head = request.method.toUpperCase() === 'HEAD';
    const { file, length, stream } = await this.files.openDownload(id, expires, sig, { count: !head, withBody: !head });
    const headers = { type: 'application/octet-stream', disposition: attachmentDisposition(file.name), length };
    return stream ? new StreamableFile(stream, headers) : new StreamableFile(new Uint8Array(0), headers);
  }
}
