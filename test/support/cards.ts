import { randomBytes } from 'node:crypto';
import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CardDevice } from '../../src/cards/card-device.entity';
import { Card } from '../../src/cards/card.entity';
import { PendingLogin } from '../../src/cards/pending-login-writer';
import { LoginLog } from '../../src/login-logs/login-log.entity';
import { TestApp, unique } from './test-app';

/** Direct repository access for arranging card state in tests. */
export function cardRepos(t: TestApp) {
  return {
    cards: t.app.get<Repository<Card>>(getRepositoryToken(Card)),
    devices: t.app.get<Repository<CardDevice>>(getRepositoryToken(CardDevice)),
    logs: t.app.get<Repository<LoginLog>>(getRepositoryToken(LoginLog)),
  };
}

export async function insertCard(t: TestApp, projectId: string, fields: Partial<Card> = {}): Promise<Card> {
  const { cards } = cardRepos(t);
  return cards.save(cards.create({ projectId, code: unique('CARD').toUpperCase(), durationSeconds: 86400, deviceLimit: 1, status: 'unused', ...fields }));
}

/** A Connect login of `card` from `machine` as the one-statement writers take it, with its own request id and token hash. */
export function pendingLogin(projectId: string, card: Pick<Card, 'code'>, machine: string, requestId = unique('req')): PendingLogin {
  return {
    projectId,
    cardKey: card.code,
    machine,
    seated: false,
    log: { cardCode: card.code, machineCode: machine, ip: '203.0.113.9', family: 'connect', interface: 'card_login', resultCode: 0, requestId, tokenHash: randomBytes(32).toString('hex') },
  };
}
