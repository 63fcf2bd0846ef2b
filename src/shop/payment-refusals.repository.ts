import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { PaymentRefusal } from './payment-refusal.entity';

export type RefusalFields = Pick<
  PaymentRefusal,
  'projectId' | 'provider' | 'checkoutId' | 'reference' | 'reason' | 'detail' | 'clientIp'
>;

/** The `payment_refusals` table: every query the storefront makes on it. */
@Injectable()
export class PaymentRefusalsRepository {
  constructor(@InjectRepository(PaymentRefusal) private readonly rows: Repository<PaymentRefusal>) {}

  /** With `em`, in the caller's transaction. */
  async record(fields: RefusalFields, em: EntityManager = this.rows.manager): Promise<void> {
    await em.getRepository(PaymentRefusal).insert({
      ...fields,
      reference: fields.reference?.slice(0, 64) ?? null,
      detail: fields.detail?.slice(0, 300) ?? null,
      clientIp: fields.clientIp?.slice(0, 64) ?? null,
    });
  }

  /** Newest first; of one checkout when `checkoutId` is given. */
  page(projectId: string, checkoutId: string | null, skip: number, take: number): Promise<[PaymentRefusal[], number]> {
    return this.rows.findAndCount({
      where: checkoutId === null ? { projectId } : { projectId, checkoutId },
      order: { id: 'DESC' },
      skip,
      take,
    });
  }
}
