import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** `active` signs; `retiring` is still published until `retire_at`, after which it is retired (derived, never stored). */
export type SigningKeyStatus = 'active' | 'retiring';

/** A project's Ed25519 response-signing key (decisions §15); the private key is encrypted at rest. */
@Entity('signing_keys')
export class SigningKey {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ type: 'char', length: 16 })
  kid: string;

  /** base64url of the raw 32-byte public key. */
  @Column({ name: 'public_key', type: 'varchar', length: 64 })
  publicKey: string;

  @Column({ name: 'private_key_enc', type: 'text', select: false })
  privateKeyEnc: string;

  @Column({ type: 'varchar', length: 10 })
  status: SigningKeyStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'retire_at', type: 'timestamptz', nullable: true })
  retireAt: Date | null;
}
