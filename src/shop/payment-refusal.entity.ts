import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { RefusalReason } from './payment-provider';

/** A gateway notification the storefront refused, and why (decisions §26); see migration 1766700000001. */
@Entity('payment_refusals')
export class PaymentRefusal {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ type: 'varchar', length: 16 })
  provider: string;

  /** The checkout it named, when one of the project's has that id. */
  @Column({ name: 'checkout_id', type: 'uuid', nullable: true })
  checkoutId: string | null;

  /** What it named as the checkout, as sent (cut to 64 characters). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  reference: string | null;

  @Column({ type: 'varchar', length: 32 })
  reason: RefusalReason;

  @Column({ type: 'varchar', length: 300, nullable: true })
  detail: string | null;

  @Column({ name: 'client_ip', type: 'varchar', length: 64, nullable: true })
  clientIp: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
