import { Injectable } from '@nestjs/common';
import { DailyQuota } from '../../access/daily-quota';

export interface AuthorLimits {
  id: string;
  dailyApiQuota: number | null;
  dailyVerifyQuota: number | null;
}

/**
 * An author's daily API and verification quotas (decisions §7), counted in the shared store so every
 * instance agrees. A verification counts once in each, or in neither: each counter refuses without
 * counting at its limit, and an API use whose verification was refused is given back.
 */
@Injectable()
export class AuthorQuotas {
  constructor(private readonly quota: DailyQuota) {}

  async consume(author: AuthorLimits): Promise<boolean> {
    const { api, verify } = subjects(author.id);
    if (!(await this.quota.consume(api, author.dailyApiQuota))) return false;
    if (await this.quota.consume(verify, author.dailyVerifyQuota)) return true;
    await this.quota.release(api, author.dailyApiQuota);
    return false;
  }

  /** Today's counted uses (for the admin side and tests). */
  async used(authorId: string): Promise<{ api: number; verify: number }> {
    const { api, verify } = subjects(authorId);
    const [apiUsed, verifyUsed] = await Promise.all([this.quota.used(api), this.quota.used(verify)]);
    return { api: apiUsed, verify: verifyUsed };
  }
}

function subjects(authorId: string) {
  return { api: `author:${authorId}:api`, verify: `author:${authorId}:verify` };
}
