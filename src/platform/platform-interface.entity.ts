import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Platform-wide on/off switch of one interface. */
@Entity('platform_interfaces')
export class PlatformInterface {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  name: string;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
