import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A project's settings of one payment provider (decisions §26); see migration 1766700000001. */
@Entity('payment_providers')
export class PaymentProviderSetting {
  @PrimaryColumn({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  provider: string;

  /** New checkouts may pay with it; notifications of earlier checkouts are verified either way. */
  @Column({ type: 'boolean', default: false })
  enabled: boolean;

  /** The provider's fields that are not secret (e.g. epay's gateway_url and pid). */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings: Record<string, unknown>;

  /** The secret fields as one JSON object, encrypted with APP_ENCRYPTION_KEY (SecretBox). */
  @Column({ name: 'secrets_enc', type: 'text' })
  secretsEnc: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
