import { Injectable } from '@nestjs/common';
import { DailyQuota } from '../../access/daily-quota';

export interface AuthorLimits {
  id: string;
  dailyApiQuota: number | null;
  dailyVerifyQuota: number | null;
}

/** Effectively unlimited: the refund counter only ever needs to count. */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

/**
 * An author's daily API and verification quotas (decisions §7), counted in the shared store so every
 * instance agrees. A verification counts once in each, or in neither: each counter refuses without
 * counting at its limit, and when the API count went through but the verification count was refused,
 * that API use is recorded as refunded and raises the API limit the next request is checked against.
 * Reading the refund count before counting can only make a check stricter, never admit one too many.
 */
@Injectable()
export class AuthorQuotas {
  constructor(private readonly quota: DailyQuota) {}

  async consume(author: AuthorLimits): Promise<boolean> {
    const { api, verify, refunded } = subjects(author.id);
    let apiLimit = author.dailyApiQuota;
    if (apiLimit !== null) apiLimit += await this.quota.used(refunded);
    if (!(await this.quota.consume(api, apiLimit))) return false;
    if (await this.quota.consume(verify, author.dailyVerifyQuota)) return true;
    if (apiLimit !== null) await this.quota.consume(refunded, UNCAPPED);
    return false;
  }

  /** Today's counted uses (for the admin side and tests). */
  async used(authorId: string): Promise<{ api: number; verify: number }> {
    const { api, verify, refunded } = subjects(authorId);
    const [apiUsed, refunds, verifyUsed] = await Promise.all([this.quota.used(api), this.quota.used(refunded), this.quota.used(verify)]);
    return { api: apiUsed - refunds, verify: verifyUsed };
  }
}

function subjects(authorId: string) {
  return { api: `author:${authorId}:api`, verify: `author:${authorId}:verify`, refunded: `author:${authorId}:api:refunded` };
}
