import { Body, Controller, Post } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../../access/client-call';
import { Envelope } from '../../http/envelope/envelope.decorator';
import { ErrorCode } from '../../core/errors/error-code';
import { ApiAnswer, ApiFailures } from '../../http/openapi/api-contract';
import { LegacyVerification } from '../legacy-answers';
import { LegacyClient } from '../legacy-program.guard';
import { VerifyDto } from './verify.dto';
import { VerifyService } from './verify.service';

/**
 * `POST /api/verify`: form fields `app`, `domain`, optional `licence`; legacy envelope (`code: 1`).
 * Declared for POST only, so any other method answers JSON 405. The client IP is the connection's
 * (or X-Forwarded-For behind a proxy named in TRUST_PROXY), never a field of the request.
 */
@ApiTags('client: legacy')
@Envelope('legacy')
@LegacyClient()
@Controller('api/verify')
export class VerifyController {
  constructor(private readonly verifier: VerifyService) {}

  @Post()
  @ApiOperation({
    summary: 'Verify that a site (domain, optional licence) is authorized for the program',
    description: 'The caller address is checked against the blacklist and the IP bindings.',
  })
  @ApiAnswer(LegacyVerification)
  @ApiFailures(ErrorCode.SITE_NOT_AUTHORIZED, ErrorCode.BLACKLISTED, ErrorCode.IP_NOT_BOUND)
  @ApiConsumes('application/x-www-form-urlencoded')
  verify(@Caller() call: ClientCall, @Body() body: VerifyDto) {
    return this.verifier.verify(call, body);
  }
}
