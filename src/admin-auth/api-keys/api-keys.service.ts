import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { selfAgent } from '../../agents/agent-rows';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { normalizeAddressEntry } from '../../common/blacklist-matcher';
import { ProjectAccess } from '../../projects/project-access';
import { noteChange } from '../../common/audit-note';
import { AdminPrincipal } from '../../admin-kernel/admin-principal';
import { ApiKey } from './api-key.entity';
import { apiKeyPrefix, ApiKeyHasher, newApiKey } from './api-key-secret';
import { ApiKeyView, CreateApiKeyDto, CreatedApiKeyView } from './api-key.dto';

/** Keys listed per account: far more than a shop needs, few enough to answer in one page. */
const LIST_LIMIT = 500;

/** An account's API keys (decisions §19): made, listed and revoked by the account itself only. */
@Injectable()
export class ApiKeysService {
  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly hasher: ApiKeyHasher,
    private readonly access: ProjectAccess,
    private readonly dataSource: DataSource,
  ) {}

  async create(actor: AdminPrincipal, body: CreateApiKeyDto): Promise<CreatedApiKeyView> {
    const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw new ServiceError(ErrorCode.BAD_REQUEST, 'expires_at must be in the future', {
        details: ['expires_at must be in the future'],
      });
    }
    const projectIds = body.project_ids ?? null;
    // The owner's rights at most: every named project must be one the owner reaches, as its own routes would.
    const agentProjects = actor.role === 'agent' && projectIds ? (await selfAgent(this.dataSource, actor)).projectIds : null;
    for (const id of projectIds ?? []) {
      const reached = agentProjects
        ? agentProjects.includes(id)
          ? Promise.resolve()
          : Promise.reject(new Error())
        : this.access.find(actor, id);
      await reached.catch(() => {
        throw new ServiceError(ErrorCode.PROJECT_NOT_FOUND, undefined, {
          details: [`project_ids names no project of yours: ${id}`],
        });
      });
    }
    const cidrs = body.allowed_cidrs ? [...new Set(body.allowed_cidrs.map((c) => normalizeAddressEntry(c) as string))] : null;
    const key = newApiKey();
    const row = await this.keys.save(
      this.keys.create({
        ownerId: actor.id,
        name: body.name.trim(),
        prefix: apiKeyPrefix(key),
        keyHash: this.hasher.hash(key),
        scopes: [...body.scopes].sort(),
        projectIds,
        allowedCidrs: cidrs,
        expiresAt,
      }),
    );
    const view = toApiKeyView(row);
    noteChange(actor, { resourceId: row.id, after: view });
    return { ...view, key };
  }

  async list(actor: AdminPrincipal): Promise<ApiKeyView[]> {
    const rows = await this.keys.find({ where: { ownerId: actor.id }, order: { createdAt: 'DESC' }, take: LIST_LIMIT });
    return rows.map(toApiKeyView);
  }

  /** Revoking twice is no error; another account's key is API_KEY_NOT_FOUND, like a missing one. */
  async revoke(actor: AdminPrincipal, id: string): Promise<void> {
    const row = await this.keys.findOneBy({ id, ownerId: actor.id });
    if (!row) throw new ServiceError(ErrorCode.API_KEY_NOT_FOUND);
    if (row.revokedAt) return;
    await this.keys.update({ id, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    noteChange(actor, { resourceId: id, before: { revoked_at: null }, after: { revoked_at: new Date().toISOString() } });
  }
}

export function toApiKeyView(row: ApiKey): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    project_ids: row.projectIds,
    allowed_cidrs: row.allowedCidrs,
    expires_at: row.expiresAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
