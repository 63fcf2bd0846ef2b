import { EntityManager } from 'typeorm';

export interface RefundTotals {
  cardIds: number[];
  refundedCents: number;
  clawbackCents: number;
}

/**
 * The money side of deleting a project, in the deleting transaction, which the orders own: its
 * unused order cards are refunded and its orders kept. Projects name it and the global
 * OrderRefundsModule provides it, so projects never import orders (which sit above them).
 */
export abstract class ProjectOrdersSettlement {
  abstract settle(em: EntityManager, projectId: string, actorId: string | null): Promise<RefundTotals>;
}
