import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type TokenAlgorithm = 'md5' | 'sha256' | 'hmac_sha256';

/** One program's Connect response customization (decisions §8). The secret is a SecretBox ciphertext. */
@Entity('connect_customizations')
export class ConnectCustomization {
  @PrimaryColumn({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ name: 'field_names', type: 'jsonb', default: () => "'{}'::jsonb" })
  fieldNames: Record<string, string>;

  @Column({ name: 'token_algorithm', type: 'varchar', length: 16, nullable: true })
  tokenAlgorithm: TokenAlgorithm | null;

  @Column({ name: 'token_template', type: 'varchar', length: 512, nullable: true })
  tokenTemplate: string | null;

  @Column({ name: 'secret_enc', type: 'text', nullable: true })
  secretEnc: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
