import { EntityManager } from 'typeorm';

/** A card row as a DELETE … RETURNING id, status, order_id gives it back. */
export interface DeletedCard {
  id: number;
  status: string;
  order_id: string | null;
}

/**
 * The money side of deleting cards (decisions §19), which the orders own: every card that was
 * unused and came from an order is credited back to its agent, in the deleting transaction. Cards
 * name it and the global OrderRefundsModule provides it, so cards never import orders (which
 * make cards); a cards module without it cannot start, so no deletion skips the refund.
 */
export abstract class DeletedCardRefunds {
  abstract refund(em: EntityManager, deleted: DeletedCard[], actorId: string | null): Promise<unknown>;
}
