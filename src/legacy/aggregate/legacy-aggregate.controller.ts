import { applyDecorators, Body, Controller, Post } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Caller, ClientCall } from '../../access/client-call';
import { CARD_LOGIN_REFUSALS } from '../../cards/card-login.service';
import { CARD_UNBIND_REFUSALS, CardUnbindData } from '../../cards/card-unbind.service';
import { CompatUserLogin, RegisteredUser } from '../../app-users/app-users.service';
import { Envelope } from '../../http/envelope/envelope.decorator';
import { ErrorCode } from '../../core/errors/error-code';
import { ApiAnswer, ApiFailures } from '../../http/openapi/api-contract';
import { LegacyAnnouncement, LegacyAppConfig, LegacyAppProfile, LegacyCardLogin, LegacyFileDownload } from '../legacy-answers';
import { plainFields } from '../legacy-fields';
import { LegacyAggregateClient } from '../legacy-program.guard';
import { LEGACY_ACTION_ALIASES, LEGACY_ACTIONS } from './legacy-actions';
import { LegacyAggregateService } from './legacy-aggregate.service';
import { RateLimit } from '../../http/throttling/route-rate.guard';
import { aggregateKey, aggregateRouteClass } from './aggregate-rate-limits';

const ACTION_ANSWERS = [
  LegacyCardLogin,
  CardUnbindData,
  CompatUserLogin,
  RegisteredUser,
  LegacyAnnouncement,
  LegacyAppConfig,
  LegacyFileDownload,
  LegacyAppProfile,
];

/** The aggregate's contract: the action in `api`, its own fields, and the answer of that action. */
const AggregateContract = () =>
  applyDecorators(
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiOperation({
      summary: 'Run a legacy action (card login, unbind, user login and registration, announcement, config, file, profile)',
      description:
        "The action's own fields travel beside `api`; under the project's transport encryption they travel encrypted in `data` and the answer's `data` is the ciphertext (docs/protocol.md). The card and user actions need the MD5 signature.",
    }),
    ApiBody({
      schema: {
        type: 'object',
        required: ['app', 'api'],
        additionalProperties: { type: 'string' },
        properties: {
          app: { type: 'string', description: 'The public program ID' },
          api: { type: 'string', enum: [...LEGACY_ACTIONS, ...Object.keys(LEGACY_ACTION_ALIASES)] },
          data: { type: 'string', description: 'base64 ciphertext of the url-encoded action fields (transport encryption)' },
          sign: { type: 'string', description: 'MD5 parameter signature (card and user actions)' },
          t: { type: 'string', description: 'Unix seconds (with sign)' },
        },
      },
    }),
    ApiAnswer(
      {
        anyOf: [
          ...ACTION_ANSWERS.map((answer) => ({ $ref: getSchemaPath(answer) })),
          { type: 'string', description: 'ciphertext (transport encryption)' },
        ],
      },
      { models: ACTION_ANSWERS },
    ),
    ApiFailures(
      ...CARD_LOGIN_REFUSALS,
      ...CARD_UNBIND_REFUSALS,
      ErrorCode.USERNAME_TAKEN,
      ErrorCode.BAD_CREDENTIALS,
      ErrorCode.USER_BANNED,
      ErrorCode.MACHINE_MISMATCH,
      ErrorCode.RATE_LIMITED,
      ErrorCode.FILE_NOT_FOUND,
    ),
  );

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

  @RateLimit(aggregateRouteClass, aggregateKey)
  @Post('app')
  @LegacyAggregateClient()
  @AggregateContract()
  app(@Caller() call: ClientCall, @Body() body: unknown) {
    return this.aggregate.handle(call, plainFields(body));
  }

  @RateLimit(aggregateRouteClass, aggregateKey)
  @Post('legacy/v1/app')
  @LegacyAggregateClient()
  @AggregateContract()
  canonical(@Caller() call: ClientCall, @Body() body: unknown) {
    return this.aggregate.handle(call, plainFields(body));
  }
}
