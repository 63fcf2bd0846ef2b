import { Injectable } from '@nestjs/common';
import { InterfaceGate } from '../access/interface-gate';
import { AnnouncementsService } from '../announcements/announcements.service';
import { CardLoginService } from '../cards/card-login.service';
import { clientExpiry } from '../cards/card-state';
import { unixSeconds } from '../common/time';
import { AppConfig } from '../config/app-config';
import { ClientReply } from '../core/envelope/render';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { RequestContext } from '../core/http/request-context';
import { SharedStore } from '../core/store/shared-store';
import { ConnectRequestContext } from './connect-program.guard';
import { ConnectLoginDto } from './connect.dto';
import { CustomizationService } from './customization/customization.service';
import { customToken, renderTemplate } from './customization/customization-rules';

const NONCE_WINDOW_SECONDS = 60;

/** Connect card login: nonce replay protection, the shared card-login rule, the Connect answer. */
@Injectable()
export class ConnectService {
  constructor(
    private readonly cardLogin: CardLoginService,
    private readonly gate: InterfaceGate,
    private readonly announcements: AnnouncementsService,
    private readonly customizations: CustomizationService,
    private readonly store: SharedStore,
    private readonly config: AppConfig,
  ) {}

  async login({ program, customization }: ConnectRequestContext, input: ConnectLoginDto, client: RequestContext): Promise<ClientReply> {
    const { project } = program;
    if (input.nonce !== undefined && !(await this.store.claim(`connect-nonce:${project.id}:${input.nonce}`, NONCE_WINDOW_SECONDS))) {
      throw new ServiceError(ErrorCode.NONCE_REPLAYED);
    }
    const { card, token } = await this.cardLogin.login({
      program,
      cardKey: input.user_key,
      machine: input.serial,
      ip: client.clientIp,
      family: 'connect',
      requestId: client.requestId,
      gate: { requireBasicPackage: false, requireConnect: true },
    });
    const now = new Date();
    const expiresAt = clientExpiry(card, this.config.APP_TIMEZONE);
    let successToken = token;
    if (customization?.tokenAlgorithm && customization.tokenTemplate) {
      const secret = this.customizations.secretOf(customization);
      const rendered = renderTemplate(customization.tokenTemplate, {
        user_key: input.user_key,
        serial: input.serial,
        program_id: project.programId,
        timestamp: String(unixSeconds(now)),
        expires_at: expiresAt,
        nonce: input.nonce ?? '',
        device_limit: String(card.deviceLimit),
        secret: secret ?? '',
      });
      successToken = customToken(customization.tokenAlgorithm, rendered, secret);
    }
    return {
      message: 'Login successful',
      data: {
        token: successToken,
        expires_at: expiresAt,
        device_limit: card.deviceLimit,
        server_time: unixSeconds(now),
        machine_code: input.serial,
        announcement: await this.announcementText(program),
      },
    };
  }

  /** The newest enabled announcement of this program where `announcement` is authorized; else empty. */
  private async announcementText(program: ConnectRequestContext['program']): Promise<string> {
    if (!(await this.gate.isAuthorized(program, 'announcement'))) return '';
    return this.announcements.clientText(program.project);
  }
}
