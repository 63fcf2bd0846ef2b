import { EntityManager } from 'typeorm';
import { ClientCall } from '../access/client-call';
import { ErrorCode } from '../core/errors/error-code';
import { LoginLog } from '../login-logs/login-log.entity';
import { Card } from './card.entity';
import { PendingLogin } from './pending-login-writer';

// A card login attempt as the one rule takes it (card-login.service.ts), and the rows it makes of it.

export interface CardLoginRequest {
  call: ClientCall;
  cardKey: string;
  machine: string;
  /**
   * Work that must hold the card's row lock together with the login (SDK seats): runs after every
   * check of the card and device, before anything is written; a code it returns refuses the login
   * (logged like any refusal). A card with a seat limit then never takes the one-statement path.
   */
  seated?: (em: EntityManager, card: Card) => Promise<ErrorCode | null>;
}

export interface CardLoginSuccess {
  card: Card;
  /** A fresh compatible login token (32 random bytes, base64url); its hash is on the log row. */
  token: string;
}

/** The result code of an admitted login on its log row. */
export const SUCCESS = 0;

/** A card as the one-statement paths answer it (their RETURNING columns). */
export function cardFromRow(row: Record<string, unknown>): Partial<Card> {
  return {
    id: row.id as number,
    projectId: row.project_id as string,
    code: row.code as string,
    kind: row.kind as Card['kind'],
    usesLeft: row.uses_left as number | null,
    concurrentLimit: row.concurrent_limit as number | null,
    durationSeconds: row.duration_seconds as number,
    deviceLimit: row.device_limit as number,
    status: row.status as Card['status'],
    activatedAt: row.activated_at as Date | null,
    expiresAt: row.expires_at as Date | null,
    useCount: Number(row.use_count),
    unbindCount: row.unbind_count as number,
    lastLoginAt: row.last_login_at as Date | null,
    note: row.note as string | null,
    batchId: row.batch_id as string | null,
    cardTypeId: row.card_type_id as number | null,
    trial: row.trial === true,
  };
}

/** What every log row of this attempt says, whatever its result. */
export function attemptOf({ call, cardKey, machine }: CardLoginRequest) {
  return {
    projectId: call.program.project.id,
    cardCode: cardKey.slice(0, 128),
    machineCode: machine.slice(0, 128),
    ip: call.ip.slice(0, 64),
    family: call.family,
    interface: 'card_login',
    requestId: call.requestId,
  };
}

/** A login for a one-statement path: the attempt, and the success log row it writes if admitted. */
export function pendingLogin(request: CardLoginRequest, tokenHash: string): PendingLogin {
  const { projectId, ...attempt } = attemptOf(request);
  return {
    projectId,
    cardKey: request.cardKey,
    machine: request.machine,
    seated: request.seated !== undefined,
    log: { ...attempt, resultCode: SUCCESS, tokenHash },
  };
}

/** The login-log row of this attempt with its result. */
export function logRow(request: CardLoginRequest, cardId: number | null, resultCode: number): Partial<LoginLog> {
  return { ...attemptOf(request), cardId, resultCode };
}
