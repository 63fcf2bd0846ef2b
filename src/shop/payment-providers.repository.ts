import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
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
    // Raw: INSERT … ON CONFLICT DO UPDATE … RETURNING, so the answer is the row as stored.
    const [saved]: Array<Record<string, unknown>> = await this.rows.query(
      `INSERT INTO payment_providers (project_id, provider, enabled, settings, secrets_enc) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (project_id, provider) DO UPDATE
         SET enabled = EXCLUDED.enabled, settings = EXCLUDED.settings, secrets_enc = EXCLUDED.secrets_enc, updated_at = now()
       RETURNING created_at, updated_at`,
      [row.projectId, row.provider, row.enabled, JSON.stringify(row.settings), row.secretsEnc],
    );
    return this.rows.create({
      ...row,
      createdAt: new Date(saved.created_at as string),
      updatedAt: new Date(saved.updated_at as string),
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
