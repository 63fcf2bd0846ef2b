import { EntityManager } from 'typeorm';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { AgentLedgerRepository } from './agent-ledger.repository';

export const LEDGER_KINDS = ['credit', 'debit', 'refund', 'commission', 'clawback'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** The kinds that take money away: their amounts are negative, the others' positive. */
const OUTGOING: ReadonlySet<LedgerKind> = new Set(['debit', 'clawback']);

export interface LedgerChange {
  agentId: string;
  kind: LedgerKind;
  /** How much, in cents, always positive: the kind says which way it goes. */
  cents: number;
  actorId: string | null;
  note?: string | null;
  orderId?: string | null;
  batchId?: string | null;
}

/**
 * One balance change and its entry, in the caller's transaction: a single conditional UPDATE that
 * refuses to go below zero (after a lock wait PostgreSQL re-checks it against the newest balance,
 * so no concurrent change is lost or overdrawn), then the entry with the balance it left. Refused:
 * INSUFFICIENT_BALANCE, and the caller's transaction rolls back whatever it did before.
 * Answers the balance after.
 */
export async function changeBalance(em: EntityManager, change: LedgerChange): Promise<number> {
  if (!Number.isSafeInteger(change.cents) || change.cents <= 0)
    throw new Error(`a ledger change needs positive whole cents, got ${change.cents}`);
  const ledger = AgentLedgerRepository.in(em);
  const delta = OUTGOING.has(change.kind) ? -change.cents : change.cents;
  const after = await ledger.addToBalance(change.agentId, delta);
  if (after === null) {
    // Read only to say why the update refused.
    const balance = await ledger.balanceOf(change.agentId);
    if (balance === null) throw new Error(`agent ${change.agentId} is gone`);
    throw new ServiceError(ErrorCode.INSUFFICIENT_BALANCE, undefined, {
      details: { agent_id: change.agentId, balance_cents: balance, needed_cents: change.cents },
    });
  }
  await ledger.append({
    agentId: change.agentId,
    kind: change.kind,
    amountCents: delta,
    balanceAfterCents: after,
    orderId: change.orderId ?? null,
    batchId: change.batchId ?? null,
    note: change.note ?? null,
    actorId: change.actorId,
  });
  return after;
}

/**
 * Locks the balances of several agents in one order (by id) before a transaction changes more
 * than one of them (an order and its parent's commission, a parent's credit, a refund and its
 * clawback): two such transactions then never wait on each other in opposite orders.
 */
export async function lockBalances(em: EntityManager, agentIds: Array<string | null | undefined>): Promise<void> {
  const ids = [...new Set(agentIds.filter((id): id is string => Boolean(id)))].sort();
  if (ids.length > 1) await AgentLedgerRepository.in(em).lock(ids);
}
