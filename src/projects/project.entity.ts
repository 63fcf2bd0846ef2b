import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const PROJECT_STATUSES = ['active', 'disabled'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export const USER_MACHINE_POLICIES = ['rebind', 'locked', 'free'] as const;
export type UserMachinePolicy = (typeof USER_MACHINE_POLICIES)[number];
export const TRANSPORT_ENCRYPTIONS = ['none', 'rc4', 'aes', 'aes-gcm'] as const;
export type TransportEncryption = (typeof TRANSPORT_ENCRYPTIONS)[number];

/** One client program (decisions §7). Secrets are AES-256-GCM ciphertexts (SecretBox). */
export const SEAT_POLICIES = ['refuse', 'evict_oldest'] as const;
export type SeatPolicy = (typeof SEAT_POLICIES)[number];

@Entity('projects')
export class Project {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'program_id', type: 'char', length: 8 })
  programId: string;

  @Column({ name: 'owner_id', type: 'uuid' })
  ownerId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 10, default: 'active' })
  status: ProjectStatus;

  @Column({ name: 'verification_enabled', type: 'boolean', default: true })
  verificationEnabled: boolean;

  @Column({ name: 'basic_package', type: 'boolean', default: true })
  basicPackage: boolean;

  @Column({ name: 'plan_level', type: 'integer', default: 0 })
  planLevel: number;

  @Column({ name: 'licence_verify', type: 'boolean', default: false })
  licenceVerify: boolean;

  @Column({ name: 'device_limit', type: 'integer', default: 1 })
  deviceLimit: number;

  @Column({ name: 'unbind_enabled', type: 'boolean', default: true })
  unbindEnabled: boolean;

  @Column({ name: 'unbind_deduct_seconds', type: 'integer', default: 0 })
  unbindDeductSeconds: number;

  @Column({ name: 'unbind_max', type: 'integer', nullable: true })
  unbindMax: number | null;

  /** Rebinding rules (decisions §21): seconds between two of a card's holder unbinds (0 = none). */
  @Column({ name: 'unbind_cooldown_seconds', type: 'integer', default: 0 })
  unbindCooldownSeconds: number;

  /** Holder unbinds per card in any 30 days (null = unlimited). */
  @Column({ name: 'unbind_max_per_30_days', type: 'integer', nullable: true })
  unbindMaxPer30Days: number | null;

  /** A bound device silent (no login, no heartbeat) this long frees its slot to a new device (0 = off; decisions §21). */
  @Column({ name: 'device_idle_release_seconds', type: 'integer', default: 0 })
  deviceIdleReleaseSeconds: number;

  /** Trials (decisions §21): the card type each device's one trial card is made from; null = trials off. */
  @Column({ name: 'trial_card_type_id', type: 'integer', nullable: true })
  trialCardTypeId: number | null;

  @Column({ name: 'session_ttl_seconds', type: 'integer', default: 600 })
  sessionTtlSeconds: number;

  @Column({ name: 'heartbeat_interval_seconds', type: 'integer', default: 60 })
  heartbeatIntervalSeconds: number;

  @Column({ name: 'user_machine_policy', type: 'varchar', length: 10, default: 'rebind' })
  userMachinePolicy: UserMachinePolicy;

  @Column({ name: 'transport_encryption', type: 'varchar', length: 10, default: 'none' })
  transportEncryption: TransportEncryption;

  @Column({ name: 'ip_bindings', type: 'jsonb', default: () => "'[]'::jsonb" })
  ipBindings: string[];

  @Column({ name: 'connect_enabled', type: 'boolean', default: false })
  connectEnabled: boolean;

  /** Ed25519-signed answers on the client routes (decisions §15). */
  @Column({ name: 'response_signing', type: 'boolean', default: true })
  responseSigning: boolean;

  /** Longest offline licence (checkout); 0 = checkout off. */
  @Column({ name: 'offline_grace_seconds', type: 'integer', default: 0 })
  offlineGraceSeconds: number;

  /** Default `concurrent_limit` of new cards (live SDK sessions per card; null = unlimited). */
  @Column({ name: 'concurrent_limit', type: 'integer', nullable: true })
  concurrentLimit: number | null;

  /** An SDK login beyond a card's seats: refused (SEATS_FULL) or the oldest session evicted. */
  @Column({ name: 'seat_policy', type: 'varchar', length: 16, default: 'refuse' })
  seatPolicy: SeatPolicy;

  /** The card-holder portal and its unsigned calls (decisions §14). */
  @Column({ name: 'portal_enabled', type: 'boolean', default: true })
  portalEnabled: boolean;

  /** Card keys matching no card one client address may send in a minute before RATE_LIMITED (decisions §23). */
  @Column({ name: 'card_guess_limit_per_minute', type: 'integer', default: 20 })
  cardGuessLimitPerMinute: number;

  @Column({ name: 'api_secret_enc', type: 'text' })
  apiSecretEnc: string;

  @Column({ name: 'legacy_secret_enc', type: 'text' })
  legacySecretEnc: string;

  @Column({ name: 'transport_key_enc', type: 'text' })
  transportKeyEnc: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
