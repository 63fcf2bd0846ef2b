import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { BlacklistMatcher } from '../../common/blacklist-matcher';
import { AdminPrincipal } from '../../admin-kernel/admin-principal';
import { ApiKey } from './api-key.entity';
import { AgentChain } from '../agent-chain';
import { API_KEY_PATTERN, ApiKeyHasher } from './api-key-secret';

/** last_used_at is a recognition aid ("used today"), not a log: one write a minute per key is enough. */
const TOUCH_EVERY_MS = 60_000;
const TOUCHED_LIMIT = 10_000;

/** An API key as the admin guard meets it: who it acts for, within which limits. */
export interface AuthenticatedKey {
  principal: AdminPrincipal;
  allowedCidrs: readonly string[] | null;
}

/**
 * Resolves `Bearer ck_…` (decisions §19): one indexed read by the keyed hash per request, like an
 * admin token. Unknown, revoked, expired, or an owner no longer active: 401, the same answer for all.
 */
@Injectable()
export class ApiKeyAuthenticator {
  /** Key id → when this instance last wrote its last_used_at (a burst writes once, not once per request). */
  private readonly touched = new Map<string, number>();

  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly hasher: ApiKeyHasher,
    private readonly agentChain: AgentChain,
  ) {}

  static looksLikeKey(token: string): boolean {
    return token.startsWith('ck_');
  }

  async authenticate(key: string): Promise<AuthenticatedKey> {
    const row = API_KEY_PATTERN.test(key)
      ? await this.keys.findOne({ where: { keyHash: this.hasher.hash(key) }, relations: { owner: true } })
      : null;
    const now = Date.now();
    const inactive = async (owner: ApiKey['owner']) =>
      owner.status !== 'active' || (owner.role === 'agent' && !(await this.agentChain.active(owner.id)));
    if (!row || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= now) || (await inactive(row.owner))) {
      throw new ServiceError(ErrorCode.UNAUTHENTICATED, 'The API key is invalid, revoked or expired');
    }
    await this.touch(row, now);
    const owner = row.owner;
    return {
      principal: {
        id: owner.id,
        username: owner.username,
        role: owner.role,
        tokenHash: row.keyHash,
        twoFactorEnabled: owner.totpEnabledAt !== null,
        apiKey: { id: row.id, name: row.name, scopes: row.scopes, projectIds: row.projectIds },
      },
      allowedCidrs: row.allowedCidrs,
    };
  }

  /** Whether `address` (as the service sees the caller: TRUST_PROXY applied) is within the key's CIDRs. */
  static allows(allowedCidrs: readonly string[] | null, address: string): boolean {
    if (!allowedCidrs) return true;
    const matcher = new BlacklistMatcher(
      allowedCidrs.map((value, id) => ({ id, kind: 'address' as const, value, note: null, expiresAt: null })),
    );
    return matcher.match(address, undefined, 0) !== null;
  }

  /**
   * At most once a minute per key and instance, and only when the stored time is a minute old: the
   * conditional UPDATE lets instances racing on the same key write once between them.
   */
  private async touch(row: ApiKey, now: number): Promise<void> {
    const last = Math.max(row.lastUsedAt?.getTime() ?? 0, this.touched.get(row.id) ?? 0);
    if (now - last < TOUCH_EVERY_MS) return;
    if (this.touched.size >= TOUCHED_LIMIT) this.touched.clear();
    this.touched.set(row.id, now);
    await this.keys
      .createQueryBuilder()
      .update()
      .set({ lastUsedAt: () => 'now()' })
      .where('id = :id', { id: row.id })
      .andWhere(`(last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`)
      .execute();
  }
}
