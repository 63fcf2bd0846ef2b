import { Injectable } from '@nestjs/common';
import { ClientProgram, ClientProgramDirectory } from '../access/client-program';
import { InterfaceGate } from '../access/interface-gate';
import { CardLoginService } from '../cards/card-login.service';
import { Card } from '../cards/card.entity';
import { cardRefusal, clientExpiry } from '../cards/card-state';
import { formatLocalTime, unixSeconds } from '../common/time';
import { AppConfig } from '../config/app-config';
import { ClientReply } from '../core/envelope/render';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { RequestContext } from '../core/http/request-context';
import { SessionsService } from '../sessions/sessions.service';

const STANDARD_GATE = { requireBasicPackage: true };

/**
 * The standard family's card routes: V3 login (a compatible token, no session), SDK login (plus a
 * card session) and the card heartbeat. Both logins are the one CardLoginService with its
 * `card_login` authorization and quota.
 */
@Injectable()
export class StandardCardsService {
  constructor(
    private readonly cardLogin: CardLoginService,
    private readonly sessions: SessionsService,
    private readonly directory: ClientProgramDirectory,
    private readonly gate: InterfaceGate,
    private readonly config: AppConfig,
  ) {}

  async v3Login(program: ClientProgram, cardKey: string, machine: string, client: RequestContext): Promise<ClientReply> {
    const { card, token } = await this.login(program, cardKey, machine, client, 'v3');
    return { message: 'Login successful', extras: { token, statecode: card.status }, data: this.cardData(card, machine) };
  }

  async sdkLogin(program: ClientProgram, cardKey: string, machine: string, client: RequestContext): Promise<ClientReply> {
    const { card, token } = await this.login(program, cardKey, machine, client, 'sdk');
    const { token: sessionToken, session } = await this.sessions.open({
      type: 'card',
      projectId: program.project.id,
      cardId: card.id,
      machine,
      expiresAt: capAt(new Date(Date.now() + program.project.sessionTtlSeconds * 1000), card.expiresAt),
    });
    return {
      message: 'Login successful',
      extras: { token, statecode: card.status },
      data: {
        ...this.cardData(card, machine),
        session_token: sessionToken,
        session_expires_at: this.time(session.expiresAt),
        heartbeat_interval_seconds: program.project.heartbeatIntervalSeconds,
      },
    };
  }

  /** Renews a card session after re-checking the card; anything wrong with it ends the session. */
  async heartbeat(token: string, machine: string): Promise<ClientReply> {
    const { session, card, program } = await this.sessions.resolve(token, 'card', machine, (id) => this.directory.byProjectId(id));
    await this.gate.admit(program, 'card_heartbeat', STANDARD_GATE);
    const stillValid =
      card !== null && cardRefusal(card) === null && card.deviceBound;
    if (!stillValid) {
      await this.sessions.revoke(session.id);
      throw new ServiceError(ErrorCode.SESSION_INVALID);
    }
    const expiresAt = await this.sessions.renew(session, program.project.sessionTtlSeconds, card.expiresAt);
    return { message: 'Heartbeat accepted', data: { card_id: session.cardId, session_expires_at: this.time(expiresAt), server_time: unixSeconds() } };
  }

  private login(program: ClientProgram, cardKey: string, machine: string, client: RequestContext, family: 'v3' | 'sdk') {
    return this.cardLogin.login({ program, cardKey, machine, ip: client.clientIp, family, requestId: client.requestId, gate: STANDARD_GATE });
  }

  private cardData(card: Card, machine: string) {
    return { id: card.id, code: card.code, machine_code: machine, expires_at: clientExpiry(card, this.config.APP_TIMEZONE) };
  }

  private time(date: Date): string {
    return formatLocalTime(date, this.config.APP_TIMEZONE);
  }
}

function capAt(date: Date, cap: Date | null): Date {
  return cap && cap.getTime() < date.getTime() ? cap : date;
}
