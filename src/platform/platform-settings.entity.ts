import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export const CONNECT_OPENING_MODES = ['base_package', 'entitlement', 'self_service'] as const;
export type ConnectOpeningMode = (typeof CONNECT_OPENING_MODES)[number];

/** The single row of platform-wide settings (id is always 1). */
@Entity('platform_settings')
export class PlatformSettings {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'connect_opening_mode', type: 'varchar', length: 20, default: 'base_package' })
  connectOpeningMode: ConnectOpeningMode;

  @Column({ name: 'connect_min_level', type: 'integer', default: 1 })
  connectMinLevel: number;

  @Column({ name: 'legacy_metering_enabled', type: 'boolean', default: true })
  legacyMeteringEnabled: boolean;

  /** Every admin account must set up two-factor sign-in before it may do anything else. */
  @Column({ name: 'admin_two_factor_required', type: 'boolean', default: false })
  adminTwoFactorRequired: boolean;

  /** Webhooks may target private and loopback addresses (decisions §20); off by default. */
  @Column({ name: 'webhook_private_targets', type: 'boolean', default: false })
  webhookPrivateTargets: boolean;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
