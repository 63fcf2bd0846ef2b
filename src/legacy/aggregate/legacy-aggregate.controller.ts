import { Body, Controller, Post } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { ClientProgram } from '../../access/client-program';
import { Envelope } from '../../core/envelope/envelope.decorator';
import { ClientContext, RequestContext } from '../../core/http/request-context';
import { plainFields } from '../legacy-fields';
import { LegacyAggregateClient, LegacyProgram } from '../legacy-program.guard';
import { LegacyAggregateService } from './legacy-aggregate.service';

/**
 * The Legacy V1 aggregate entry, at its older path `/api/app` and its canonical path
 * `/api/legacy/v1/app`. The raw form is read (not a DTO) because, under transport encryption, the
 * action's fields only exist after decryption.
 */
@ApiTags('client: legacy')
@Envelope('legacy')
@Controller('api')
export class LegacyAggregateController {
  constructor(private readonly aggregate: LegacyAggregateService) {}

  @Post('app')
  @LegacyAggregateClient()
  @ApiConsumes('application/x-www-form-urlencoded')
  app(@LegacyProgram() program: ClientProgram, @Body() body: unknown, @ClientContext() client: RequestContext) {
    return this.aggregate.handle(program, plainFields(body), client);
  }

  @Post('legacy/v1/app')
  @LegacyAggregateClient()
  @ApiConsumes('application/x-www-form-urlencoded')
  canonical(@LegacyProgram() program: ClientProgram, @Body() body: unknown, @ClientContext() client: RequestContext) {
    return this.aggregate.handle(program, plainFields(body), client);
  }
}
