import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CardDevice } from '../../src/cards/card-device.entity';
import { Card } from '../../src/cards/card.entity';
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
