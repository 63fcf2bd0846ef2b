import { Body, Controller, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall } from '../access/client-call';
import { CardAfterTopup, CardInfo, CardInfoService } from '../cards/card-info.service';
import { CARD_TOPUP_REFUSALS, CardTopupService } from '../cards/card-topup.service';
import { CARD_UNBIND_REFUSALS, CardUnbindData, CardUnbindService, unbindData } from '../cards/card-unbind.service';
import { AppConfig } from '../config/app-config';
import { Envelope } from '../http/envelope/envelope.decorator';
import { RequiresHttps } from '../http/https-required.guard';
import { ClientReply } from '../http/envelope/render';
import { ApiAnswer, ApiFailures } from '../http/openapi/api-contract';
import { PortalCardDto, PortalTopupDto, PortalUnbindDto } from './portal.dto';
import { PortalClient } from './portal.guard';
import { PortalLimits } from './portal-limits';
import { RateLimit } from '../http/throttling/route-rate.guard';

/**
 * The card holder's calls behind the `/portal` page (decisions §14): the same rules as the SDK's
 * info, unbind and top-up, unsigned, limited per address and per card; standard envelope.
 */
@ApiTags('client: card-holder portal')
@Envelope('standard')
@PortalClient()
// Below PortalClient: class decorators apply from the bottom, so HTTPS is checked before the portal's lookup.
@RequiresHttps()
@Controller('api/v1/portal/cards')
export class PortalController {
  constructor(
    private readonly limits: PortalLimits,
    private readonly infos: CardInfoService,
    private readonly unbinds: CardUnbindService,
    private readonly topups: CardTopupService,
    private readonly config: AppConfig,
  ) {}

  @RateLimit('portal')
  @Post('info')
  @ApiOperation({ summary: 'Show a card to its holder (portal)' })
  @ApiAnswer(CardInfo)
  async info(@Caller() call: ClientCall, @Body() body: PortalCardDto): Promise<ClientReply> {
    return { message: 'ok', ...(await this.limits.run(call, body.card_key, () => this.infos.info(call, body.card_key))) };
  }

  @RateLimit('portal')
  @Post('unbind')
  @ApiOperation({ summary: 'Unbind a device from a card (portal)', description: 'Succeeds with code 1, not 0 (decisions §14).' })
  @ApiAnswer(CardUnbindData, { successCode: 1 })
  @ApiFailures(...CARD_UNBIND_REFUSALS)
  async unbind(@Caller() call: ClientCall, @Body() body: PortalUnbindDto): Promise<ClientReply> {
    const card = await this.limits.run(call, body.card_key, () =>
      this.unbinds.unbind({ call, cardKey: body.card_key, machine: body.machine_id }),
    );
    const data = unbindData(card, body.machine_id, this.config.APP_TIMEZONE);
    return { message: 'Device unbound', successCode: 1, data, cardId: card.id };
  }

  @RateLimit('portal')
  @Post('topup')
  @ApiOperation({ summary: 'Top up a card with an unused card of the same kind (portal)' })
  @ApiAnswer(CardAfterTopup)
  @ApiFailures(...CARD_TOPUP_REFUSALS)
  async topup(@Caller() call: ClientCall, @Body() body: PortalTopupDto): Promise<ClientReply> {
    const card = await this.limits.run(call, body.card_key, () =>
      this.topups.topup({ call, cardKey: body.card_key, topupKey: body.topup_key }),
    );
    return { message: 'Card topped up', data: this.infos.afterTopup(card), cardId: card.id };
  }
}
