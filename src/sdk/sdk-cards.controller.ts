import { Body, Controller, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, ClientCall, ClientRequest, Requester } from '../access/client-call';
import { LOGIN_EXTRAS } from '../cards/card-data';
import { CardCheckoutService, CheckoutData } from '../cards/card-checkout.service';
import { CardAfterTopup, CardInfo, CardInfoService } from '../cards/card-info.service';
import { CARD_LOGIN_REFUSALS } from '../cards/card-login.service';
import { CARD_TOPUP_REFUSALS, CardTopupService } from '../cards/card-topup.service';
import { CARD_UNBIND_REFUSALS, CardUnbindData, CardUnbindService, unbindData } from '../cards/card-unbind.service';
import { AppConfig } from '../config/app-config';
import { Envelope } from '../http/envelope/envelope.decorator';
import { RequiresHttps } from '../http/https-required.guard';
import { ClientReply } from '../http/envelope/render';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures } from '../http/openapi/api-contract';
import { clientFamilyFailures } from '../http/openapi/failure-sources';
import { BearerToken, SessionBearer } from '../sessions/session-bearer';
import { SdkSigned } from '../standard/hmac.guard';
import { HeartbeatDto, SdkCardKeyDto, SdkCardLoginDto, SdkCheckoutDto, SdkTopupDto, SdkTrialDto } from './sdk.dto';
import { CardTrialData, CardTrialsService } from '../cards/trials/card-trials.service';
import { CardHeartbeat, SdkCardLoginData, SdkCardsService } from './sdk-cards.service';
import { byCard } from '../access/rate-keys';
import { RateLimit } from '../http/throttling/route-rate.guard';

@ApiTags('client: SDK v1')
@Envelope('standard')
@RequiresHttps()
@Controller('api/v1/cards')
export class SdkCardsController {
  constructor(
    private readonly cards: SdkCardsService,
    private readonly checkouts: CardCheckoutService,
    private readonly topups: CardTopupService,
    private readonly infos: CardInfoService,
    private readonly unbinds: CardUnbindService,
    private readonly trials: CardTrialsService,
    private readonly config: AppConfig,
  ) {}

  @Post('login')
  @SdkSigned()
  @ApiOperation({
    summary: 'Log in with a card key on a device and open a card session',
    description: 'A count card takes one use; a card with seats takes one (decisions §13).',
  })
  @ApiAnswer(SdkCardLoginData, { extras: LOGIN_EXTRAS })
  @ApiFailures(...CARD_LOGIN_REFUSALS, ErrorCode.SEATS_FULL)
  login(@Caller() call: ClientCall, @Body() body: SdkCardLoginDto): Promise<ClientReply> {
    return this.cards.login(call, body.card_key, body.machine_id);
  }

  @Post('trial')
  @SdkSigned()
  @ApiOperation({
    summary: "A device's one trial card, already bound to it",
    description:
      'Once per device and project for ever; a repeat answers the same card while it is valid, then TRIAL_USED (decisions §21).',
  })
  @ApiAnswer(CardTrialData)
  @ApiFailures(ErrorCode.TRIAL_USED, ErrorCode.INTERFACE_NOT_AUTHORIZED)
  async trial(@Caller() call: ClientCall, @Body() body: SdkTrialDto): Promise<ClientReply> {
    return { message: 'Trial card issued', data: await this.trials.trial(call, body.machine_id) };
  }

  @Post('checkout')
  @SdkSigned()
  @ApiOperation({ summary: 'Check out an offline licence for a bound device', description: 'Takes no use (decisions §15).' })
  @ApiAnswer(CheckoutData)
  @ApiFailures(
    ErrorCode.CARD_INVALID,
    ErrorCode.CARD_EXPIRED,
    ErrorCode.CARD_BANNED,
    ErrorCode.DEVICE_NOT_BOUND,
    ErrorCode.CHECKOUT_DISABLED,
    ErrorCode.RATE_LIMITED,
  )
  async checkout(@Caller() call: ClientCall, @Body() body: SdkCheckoutDto): Promise<ClientReply> {
    const licence = await this.checkouts.checkout({
      call,
      cardKey: body.card_key,
      machine: body.machine_id,
      ttlSeconds: body.ttl_seconds,
    });
    return { message: 'Offline licence issued', ...licence };
  }

  @Post('topup')
  @SdkSigned()
  @ApiOperation({
    summary: 'Top up a card with an unused card of the same kind',
    description: 'The top-up card is consumed (decisions §13).',
  })
  @ApiAnswer(CardAfterTopup)
  @ApiFailures(...CARD_TOPUP_REFUSALS)
  async topup(@Caller() call: ClientCall, @Body() body: SdkTopupDto): Promise<ClientReply> {
    const card = await this.topups.topup({ call, cardKey: body.card_key, topupKey: body.topup_key });
    return { message: 'Card topped up', data: this.infos.afterTopup(card), cardId: card.id };
  }

  @Post('info')
  @SdkSigned()
  @ApiOperation({ summary: 'Show a card as its holder sees it: state, devices, unbind terms' })
  @ApiAnswer(CardInfo)
  @ApiFailures(ErrorCode.CARD_INVALID, ErrorCode.RATE_LIMITED)
  async info(@Caller() call: ClientCall, @Body() body: SdkCardKeyDto): Promise<ClientReply> {
    return { message: 'ok', ...(await this.infos.info(call, body.card_key)) };
  }

  /** The end user's unbind (decisions §14): the one unbind rule; the standard family answers it with code 1. */
  @RateLimit('unbind', byCard)
  @Post('unbind')
  @SdkSigned()
  @ApiOperation({
    summary: 'Unbind a device from a card (the end user)',
    description: 'Succeeds with code 1, not 0 (decisions §14).',
  })
  @ApiAnswer(CardUnbindData, { successCode: 1 })
  @ApiFailures(...CARD_UNBIND_REFUSALS)
  async unbind(@Caller() call: ClientCall, @Body() body: SdkCardLoginDto): Promise<ClientReply> {
    const card = await this.unbinds.unbind({ call, cardKey: body.card_key, machine: body.machine_id });
    const data = unbindData(card, body.machine_id, this.config.APP_TIMEZONE);
    return { message: 'Device unbound', successCode: 1, data, cardId: card.id };
  }

  @Post('heartbeat')
  @SessionBearer()
  @ApiOperation({
    summary: 'Keep a card session alive',
    description: 'Re-checks the card; a card that no longer admits the device ends the session.',
  })
  @ApiAnswer(CardHeartbeat)
  @ApiFailures(ErrorCode.MACHINE_MISMATCH, ...clientFamilyFailures('sdk'))
  async heartbeat(
    @BearerToken() token: string,
    @Body() body: HeartbeatDto,
    @Requester() caller: ClientRequest,
  ): Promise<ClientReply> {
    const data = await this.cards.heartbeat(token, body.machine_id, caller);
    return { message: 'Heartbeat accepted', data, cardId: data.card_id ?? undefined };
  }
}
