import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type QueryDeepPartialEntity } from 'typeorm';
import { PaymentProviderSetting } from './payment-provider-setting.entity';

/** The `payment_providers` table: every query the storefront makes on it. */
@Injectable()
export class PaymentProvidersRepository {
  constructor(@InjectRepository(PaymentProviderSetting) private readonly rows: Repository<PaymentProviderSetting>) {}

  /** A project's providers, by name. */
  listOfProject(projectId: string): Promise<PaymentProviderSetting[]> {
    return this.rows.find({ where: { projectId }, order: { provider: 'ASC' } });
  }

  find(projectId: string, provider: string): Promise<PaymentProviderSetting | null> {
    return this.rows.findOneBy({ projectId, provider });
  }

  /** Creates or replaces the row (one statement: two PUTs racing leave one of them, whole). */
  async save(
    row: Pick<PaymentProviderSetting, 'projectId' | 'provider' | 'enabled' | 'settings' | 'secretsEnc'>,
  ): Promise<PaymentProviderSetting> {
    // INSERT … ON CONFLICT DO UPDATE (TypeORM sets updated_at itself) … RETURNING, so the answer is the row as stored.
    const { raw } = await this.rows
      .createQueryBuilder()
      .insert()
      .values(row as QueryDeepPartialEntity<PaymentProviderSetting>)
      .orUpdate(['enabled', 'settings', 'secrets_enc'], ['project_id', 'provider'])
      .returning(['createdAt', 'updatedAt'])
      .updateEntity(false)
      .execute();
    const [saved] = raw as Array<{ created_at: Date | string; updated_at: Date | string }>;
    return this.rows.create({
      ...row,
      createdAt: new Date(saved.created_at),
      updatedAt: new Date(saved.updated_at),
    });
  }

  /** Whether a row was deleted. */
  async delete(projectId: string, provider: string): Promise<boolean> {
    const { affected } = await this.rows.delete({ projectId, provider });
    return (affected ?? 0) > 0;
  }

  /** How many projects have a provider switched on (the doctor's PUBLIC_URL check; a project has a few rows at most). */
  async projectsWithOneOn(): Promise<number> {
    const rows = await this.rows.find({ select: { projectId: true }, where: { enabled: true } });
    return new Set(rows.map((row) => row.projectId)).size;
  }
}
