import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ClientCall, ClientRequest } from '../access/client-call';
import { ClientProgram, ClientProgramDirectory } from '../access/client-program';
import { InterfaceGate, noteInterface } from '../access/interface-gate';
import { CardLoginRequest } from '../cards/card-login-attempt';
import { CardLoginService } from '../cards/card-login.service';
import { IdleDevices } from '../cards/idle-devices';
import { Card } from '../cards/card.entity';
import { deviceRefusal } from '../cards/card-rule';
import { clientTimes, unixSeconds } from '../common/time';
import { AppConfig } from '../config/app-config';
import { ErrorCode } from '../core/errors/error-code';
import { aboutCard } from '../core/errors/service-error';
import { ClientReply } from '../http/envelope/render';
import { ISO_TIME, LOCAL_TIME } from '../http/openapi/api-contract';
import { cardSessionEnd } from '../sessions/session-end';
import { LiveSession, OpenSession, SessionsService } from '../sessions/sessions.service';
import { FEATURES_PROPERTY, StandardCardLoginData, standardCardLoginData, TRIAL_PROPERTY } from '../cards/card-data';

/** The `data` of an SDK card login: the card, and the session the heartbeats keep alive. */
export class SdkCardLoginData extends StandardCardLoginData {
  @ApiProperty({ description: 'Bearer token of the card session (heartbeats)' }) session_token!: string;
  @ApiProperty(LOCAL_TIME) session_expires_at!: string;
  @ApiProperty(ISO_TIME) session_expires_at_iso!: string;
  @ApiProperty({ type: 'integer' }) heartbeat_interval_seconds!: number;
}

export class CardHeartbeat {
  @ApiProperty({ type: 'integer', nullable: true }) card_id!: number | null;
  @ApiProperty(LOCAL_TIME) session_expires_at!: string;
  @ApiProperty(ISO_TIME) session_expires_at_iso!: string;
  @ApiProperty({ type: 'integer', description: 'Unix seconds' }) server_time!: number;
  @ApiProperty(FEATURES_PROPERTY) features!: string[];
  @ApiProperty(TRIAL_PROPERTY) trial!: boolean;
}

/**
 * SDK card login (the shared card-login rule, then a card session) and the card heartbeat, which
 * re-checks the card with the one card rule and ends the session when it no longer lets the device in.
 */
@Injectable()
export class SdkCardsService {
  constructor(
    private readonly cardLogin: CardLoginService,
    private readonly sessions: SessionsService,
    private readonly directory: ClientProgramDirectory,
    private readonly gate: InterfaceGate,
    private readonly config: AppConfig,
    private readonly idleDevices: IdleDevices,
  ) {}

  /**
   * The card login, then a card session. A card with a seat limit takes its seat and opens the
   * session under the card's row lock, in the login's transaction (exact across instances).
   */
  login(call: ClientCall, cardKey: string, machine: string): Promise<ClientReply> {
    const { project } = call.program;
    const sessionOf = (card: Card) => ({
      type: 'card' as const,
      projectId: project.id,
      cardId: card.id,
      machine,
      expiresAt: capAt(new Date(Date.now() + project.sessionTtlSeconds * 1000), card.expiresAt),
      address: call.ip,
    });
    let seated: OpenSession | undefined;
    const request: CardLoginRequest = {
      call,
      cardKey,
      machine,
      seated: async (em, card) => {
        if (card.concurrentLimit === null) return null;
        if (!(await this.sessions.takeSeat(em, card.id, card.concurrentLimit, project.seatPolicy))) return ErrorCode.SEATS_FULL;
        seated = await this.sessions.open(sessionOf(card), em);
        return null;
      },
    };
    return this.cardLogin.answer(request, async ({ card, token }) => {
      const { token: sessionToken, session } = seated ?? (await this.sessions.open(sessionOf(card)));
      const data: SdkCardLoginData = {
        ...standardCardLoginData(card, machine, this.config.APP_TIMEZONE),
        session_token: sessionToken,
        ...this.times(session.expiresAt),
        heartbeat_interval_seconds: project.heartbeatIntervalSeconds,
      };
      // The compatible login token and the card's state, answered beside `data` as in V3.
      return { message: 'Login successful', extras: { token, statecode: card.status }, data };
    });
  }

  /**
   * Renews a card session after re-checking the card; anything wrong with it ends the session. The
   * session's card is named by the answer (`card_id`) and by every refusal (the card's timeline).
   */
  async heartbeat(token: string, machine: string, caller: ClientRequest): Promise<CardHeartbeat> {
    const live = await this.sessions.resolve(token, 'card', machine, async (id) => {
      const program = await this.directory.byProjectId(id, caller.context);
      noteInterface(caller.context, 'card_heartbeat', machine);
      return program;
    });
    return aboutCard(live.session.cardId!, () => this.beat(live, machine, caller));
  }

  private async beat(
    { session, card, program }: LiveSession & { program: ClientProgram },
    machine: string,
    caller: ClientRequest,
  ): Promise<CardHeartbeat> {
    await this.gate.admit({ program, family: 'sdk', context: caller.context }, 'card_heartbeat', machine);
    if (card === null) throw await this.sessions.end(session, 'device_unbound');
    const refusal = deviceRefusal(card, card.deviceBound);
    if (refusal !== null) throw await this.sessions.end(session, cardSessionEnd(refusal));
    const expiresAt = await this.sessions.renew(session, program.project.sessionTtlSeconds, card.expiresAt, caller.ip);
    // A beating device is not idle (decisions §21); written at most once a minute.
    await this.idleDevices.heartbeat(program.project, session.cardId!, machine, card.deviceLastSeenAt);
    return {
      card_id: session.cardId,
      ...this.times(expiresAt),
      server_time: unixSeconds(),
      features: card.features,
      trial: card.trial,
    };
  }

  private times(sessionExpiresAt: Date) {
    return clientTimes(this.config.APP_TIMEZONE, { session_expires_at: sessionExpiresAt });
  }
}

function capAt(date: Date, cap: Date | null): Date {
  return cap && cap.getTime() < date.getTime() ? cap : date;
}
