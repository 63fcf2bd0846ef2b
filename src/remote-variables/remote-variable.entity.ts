import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** An author-defined remote variable of one program (legacy `app_config`, decisions §10). */
@Entity('remote_variables')
export class RemoteVariable {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'project_id', type: 'uuid' })
  projectId: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'text' })
  value: string;

  /** Public variables reach every client; the others only a client with a valid login token. */
  @Column({ type: 'boolean', default: false })
  public: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
