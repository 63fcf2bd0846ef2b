import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { ClientCall } from '../access/client-call';
import { InterfaceGate } from '../access/interface-gate';
import { AnnouncementsService } from '../announcements/announcements.service';
import { CardLoginService } from '../cards/card-login.service';
import { FEATURES_PROPERTY, TRIAL_PROPERTY } from '../cards/card-data';
import { clientExpiryTimes } from '../cards/card-rule';
import { unixSeconds } from '../common/time';
import { AppConfig } from '../config/app-config';
import { ClientReply } from '../http/envelope/render';
import { ISO_TIME, LOCAL_TIME } from '../http/openapi/api-contract';
import { ConnectRequestContext } from './connect-program.guard';
import { ConnectLoginDto } from './connect.dto';
import { CustomizationService } from './customization/customization.service';

/** What a Connect login answers in `data` (field names before the owner's renames). */
export class ConnectLoginData {
  @ApiProperty({ description: "The owner's success token (customization token template)" }) token!: string;
  @ApiProperty({ ...LOCAL_TIME, description: `${LOCAL_TIME.description}; the permanent date for a card that never expires` })
  expires_at!: string;
  @ApiProperty({ ...ISO_TIME, description: `${ISO_TIME.description} (not renamed by a customization)` })
  expires_at_iso!: string;
  @ApiProperty({ type: 'integer' }) device_limit!: number;
  @ApiProperty({ type: 'integer', description: 'Unix seconds' }) server_time!: number;
  @ApiProperty() machine_code!: string;
  @ApiProperty({ description: 'The latest announcement, or an empty string' }) announcement!: string;
  @ApiProperty(FEATURES_PROPERTY) features!: string[];
  @ApiProperty(TRIAL_PROPERTY) trial!: boolean;
}

/** Connect card login: the shared card-login rule, then the owner's token and the announcement. */
@Injectable()
export class ConnectService {
  constructor(
    private readonly cardLogin: CardLoginService,
    private readonly gate: InterfaceGate,
    private readonly announcements: AnnouncementsService,
    private readonly customizations: CustomizationService,
    private readonly config: AppConfig,
  ) {}

  login({ call, customization }: ConnectRequestContext, input: ConnectLoginDto): Promise<ClientReply> {
    return this.cardLogin.answer({ call, cardKey: input.user_key, machine: input.serial }, async ({ card, token }) => {
      const now = new Date();
      const expiry = clientExpiryTimes(card, this.config.APP_TIMEZONE);
      const expiresAt = expiry.expires_at;
      const ownerToken = this.customizations.successToken(customization, {
        user_key: input.user_key,
        serial: input.serial,
        program_id: call.program.project.programId,
        timestamp: String(unixSeconds(now)),
        expires_at: expiresAt,
        nonce: input.nonce ?? '',
        device_limit: String(card.deviceLimit),
      });
      const data: ConnectLoginData = {
        token: ownerToken ?? token,
        ...expiry,
        device_limit: card.deviceLimit,
        server_time: unixSeconds(now),
        machine_code: input.serial,
        announcement: await this.announcementText(call),
        features: card.features ?? [],
        trial: card.trial,
      };
      return { message: 'Login successful', data };
    });
  }

  /**
   * The newest enabled announcement where `announcement` is authorized, else empty. Asked without
   * the gate: showing it beside a login spends no `announcement` quota.
   */
  private async announcementText({ program, context }: ClientCall): Promise<string> {
    if (!(await this.gate.isAuthorized(program, 'announcement', context))) return '';
    return this.announcements.clientText(program.project, context);
  }
}
