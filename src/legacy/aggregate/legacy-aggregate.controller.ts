import { Body, Controller, Post } from '@nestjs/common';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../../access/client-call';
import { Envelope } from '../../core/envelope/envelope.decorator';
import { plainFields } from '../legacy-fields';
import { LegacyAggregateClient } from '../legacy-program.guard';
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
  app(@Caller() call: ClientCall, @Body() body: unknown) {
    return this.aggregate.handle(call, plainFields(body));
  }

  @Post('legacy/v1/app')
  @LegacyAggregateClient()
  @ApiConsumes('application/x-www-form-urlencoded')
  canonical(@Caller() call: ClientCall, @Body() body: unknown) {
    return this.aggregate.handle(call, plainFields(body));
  }
}
