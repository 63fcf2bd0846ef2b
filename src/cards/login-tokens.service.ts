import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { hashToken } from '../core/crypto/tokens';
import { LoginLog } from '../login-logs/login-log.entity';
import { Card } from './card.entity';
import { cardSql } from './card-rule';

/** How long a compatible login token (V3, Connect, legacy) proves a login. */
export const LOGIN_TOKEN_LIFETIME_MS = 24 * 3600 * 1000;

/**
 * Verifies the compatible token of a card login (e.g. for the legacy app_config action): it must
 * come from a successful login of this program within the last 24 hours, and the card must still
 * be valid (not banned, not expired).
 */
@Injectable()
export class LoginTokensService {
  constructor(@InjectRepository(LoginLog) private readonly logs: Repository<LoginLog>) {}

  async isValid(projectId: string, token: string): Promise<boolean> {
    const row = await this.logs
      .createQueryBuilder('l')
      .innerJoin(Card, 'c', 'c.id = l.card_id')
      .where('l.token_hash = :hash AND l.project_id = :projectId AND l.result_code = 0', { hash: hashToken(token), projectId })
      .andWhere('l.created_at > :since', { since: new Date(Date.now() - LOGIN_TOKEN_LIFETIME_MS) })
      .andWhere(cardSql.usable('c'))
      .getExists();
    return row;
  }
}
