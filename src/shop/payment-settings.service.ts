import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { AppConfig } from '../config/app-config';
import { SecretBox } from '../core/crypto/secret-box';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { ProjectAccess } from '../projects/project-access';
import { PaymentProvider, ProviderSettings } from './payment-provider';
import { PaymentProviderSetting } from './payment-provider-setting.entity';
import { PaymentProviders } from './payment-providers';
import { PaymentProvidersRepository } from './payment-providers.repository';
import { PaymentSettingsView } from './payment-settings.view';

/** A provider with a project's settings, secrets opened: what a checkout or a notification works with. */
export interface ProviderWithSettings {
  provider: PaymentProvider;
  settings: ProviderSettings;
}

/**
 * A project's payment providers (decisions §26): set with PUT (fields left out keep their stored
 * values, so switching a provider off or on needs no secret again), listed with the secrets masked,
 * deleted. The secret fields are stored as one encrypted text and never answered.
 */
@Injectable()
export class PaymentSettingsService {
  constructor(
    private readonly access: ProjectAccess,
    private readonly providers: PaymentProviders,
    private readonly rows: PaymentProvidersRepository,
    private readonly box: SecretBox,
    private readonly config: AppConfig,
  ) {}

  async list(actor: AdminPrincipal, projectId: string): Promise<{ items: PaymentSettingsView[]; total: number }> {
    const project = await this.access.find(actor, projectId);
    const items = (await this.rows.listOfProject(project.id))
      .filter((row) => this.providers.find(row.provider))
      .map((row) => this.view(row));
    return { items, total: items.length };
  }

  async put(actor: AdminPrincipal, projectId: string, name: string, body: unknown): Promise<PaymentSettingsView> {
    const provider = this.known(name);
    const project = await this.access.find(actor, projectId);
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new ServiceError(ErrorCode.BAD_REQUEST, 'The body must be a JSON object', { details: ['body'] });
    const stored = await this.rows.find(project.id, provider.name);
    const merged = { ...(stored ? this.open(stored) : {}), ...(body as Record<string, unknown>) };
    const problems = await settingsProblems(provider, merged);
    if (problems.length) throw new ServiceError(ErrorCode.BAD_REQUEST, problems[0], { details: problems });
    const settings = merged as ProviderSettings;
    if (settings.enabled) this.checkUsable(provider);
    const secret = new Set(provider.settings.secretFields);
    const fields = Object.keys(settings).filter((field) => field !== 'enabled');
    const row = await this.rows.save({
      projectId: project.id,
      provider: provider.name,
      enabled: settings.enabled,
      settings: Object.fromEntries(fields.filter((f) => !secret.has(f)).map((f) => [f, settings[f]])),
      secretsEnc: this.box.encrypt(
        JSON.stringify(Object.fromEntries(fields.filter((f) => secret.has(f)).map((f) => [f, settings[f]]))),
      ),
    });
    return this.view(row);
  }

  async remove(actor: AdminPrincipal, projectId: string, name: string): Promise<void> {
    const provider = this.known(name);
    const project = await this.access.find(actor, projectId);
    if (!(await this.rows.delete(project.id, provider.name))) throw new ServiceError(ErrorCode.PAYMENT_PROVIDER_NOT_FOUND);
  }

  /**
   * The provider a new checkout pays with: known, switched on for the project, PUBLIC_URL set and the
   * platform's currency one it takes; PAYMENT_PROVIDER_NOT_ENABLED otherwise.
   */
  async forCheckout(projectId: string, name: string): Promise<ProviderWithSettings> {
    const provider = this.providers.find(name);
    const row = provider ? await this.rows.find(projectId, provider.name) : null;
    if (!provider || !row?.enabled)
      throw new ServiceError(ErrorCode.PAYMENT_PROVIDER_NOT_ENABLED, undefined, {
        details: [`provider: ${name} is not enabled`],
      });
    this.checkUsable(provider);
    return { provider, settings: this.open(row) };
  }

  /**
   * The provider and settings a notification is verified with: whenever the project has settings for
   * it, switched on or not (a checkout made before its provider was switched off may still be paid).
   */
  async forNotification(projectId: string, name: string): Promise<ProviderWithSettings | null> {
    const provider = this.providers.find(name);
    const row = provider ? await this.rows.find(projectId, provider.name) : null;
    return provider && row ? { provider, settings: this.open(row) } : null;
  }

  /** Where the gateway notifies this project's payments: under PUBLIC_URL, null while it is unset. */
  notifyUrl(provider: string, projectId: string): string | null {
    const base = this.config.publicUrl;
    return base ? `${base}/shop/notify/${provider}/${projectId}` : null;
  }

  private known(name: string): PaymentProvider {
    const provider = this.providers.find(name);
    if (!provider)
      throw new ServiceError(ErrorCode.BAD_REQUEST, `Unknown payment provider ${JSON.stringify(name.slice(0, 32))}`, {
        details: [`provider must be one of: ${this.providers.names.join(', ')}`],
      });
    return provider;
  }

  /** A provider can take payments only with PUBLIC_URL set and in a currency it takes. */
  private checkUsable(provider: PaymentProvider): void {
    if (!this.config.publicUrl)
      throw new ServiceError(ErrorCode.PUBLIC_URL_NOT_SET, undefined, {
        details: ['PUBLIC_URL: set it to the address buyers and gateways reach this service at (docs/configuration.md)'],
      });
    if (!provider.currencies.includes(this.config.CURRENCY))
      throw new ServiceError(ErrorCode.PAYMENT_PROVIDER_NOT_ENABLED, undefined, {
        details: [`provider: ${provider.name} takes ${provider.currencies.join(', ')} only; CURRENCY is ${this.config.CURRENCY}`],
      });
  }

  /** The stored settings with the secrets opened. */
  private open(row: PaymentProviderSetting): ProviderSettings {
    return {
      ...row.settings,
      ...(JSON.parse(this.box.decrypt(row.secretsEnc)) as Record<string, unknown>),
      enabled: row.enabled,
    };
  }

  private view(row: PaymentProviderSetting): PaymentSettingsView {
    const provider = this.providers.find(row.provider)!;
    const secrets = JSON.parse(this.box.decrypt(row.secretsEnc)) as Record<string, unknown>;
    return {
      provider: row.provider,
      enabled: row.enabled,
      settings: row.settings,
      secrets: Object.fromEntries(provider.settings.secretFields.map((field) => [field, masked(secrets[field])])),
      notify_url: this.notifyUrl(row.provider, row.projectId),
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }
}

/** That a secret is set, never what it is: `****` and, for a long one, its last four characters. */
function masked(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  return value.length >= 16 ? `****${value.slice(-4)}` : '****';
}

/** The provider DTO's refusals of the merged settings, as `field: why` lines (unknown fields refused). */
async function settingsProblems(provider: PaymentProvider, settings: Record<string, unknown>): Promise<string[]> {
  const errors = await validate(plainToInstance(provider.settings.dto, settings), {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: false,
  });
  const lines = (error: ValidationError): string[] => Object.values(error.constraints ?? {});
  return errors.flatMap(lines);
}
