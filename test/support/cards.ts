import { randomBytes } from 'node:crypto';
import { INestApplicationContext, Type } from '@nestjs/common';
import { getRepositoryToken } from '@nestjs/typeorm';
import { FindOptionsOrder, FindOptionsWhere, IsNull, Repository } from 'typeorm';
import { CardDevice } from '../../src/cards/card-device.entity';
import { Card } from '../../src/cards/card.entity';
import { PendingLogin } from '../../src/cards/pending-login-writer';
import { PreparedStatements } from '../../src/database/prepared-statements';
import { LoginLog } from '../../src/login-logs/login-log.entity';
import { AdminClient } from './admin-client';
import { TestApp, unique } from './test-app';

/** A test app, or the service tier's context (test/support/service-context.ts): whatever resolves providers. */
type Providers = Pick<TestApp, 'app'> | { app: INestApplicationContext };

/** Direct repository access for arranging card state in tests. */
export function cardRepos(t: Providers) {
  return {
    cards: t.app.get<Repository<Card>>(getRepositoryToken(Card)),
    devices: t.app.get<Repository<CardDevice>>(getRepositoryToken(CardDevice)),
    logs: loginLog(t.app.get<Repository<LoginLog>>(getRepositoryToken(LoginLog))),
  };
}

/**
 * The login log as the author's log page shows it: the rows of card-login attempts. The request log
 * shares its table, and its rows for every other client request (heartbeats, a signature refused
 * before the card rules) carry a route, which a card login's row never does.
 */
function loginLog(rows: Repository<LoginLog>) {
  type Where = FindOptionsWhere<LoginLog>;
  const only = (where: Where | Where[]): Where | Where[] =>
    Array.isArray(where) ? where.map((w) => ({ ...w, route: IsNull() })) : { ...where, route: IsNull() };
  return {
    findBy: (where: Where | Where[]) => rows.findBy(only(where)),
    countBy: (where: Where | Where[]) => rows.countBy(only(where)),
    find: (options: { where: Where; order?: FindOptionsOrder<LoginLog> }) =>
      rows.find({ ...options, where: only(options.where) }),
  };
}

export async function insertCard(t: Providers, projectId: string, fields: Partial<Card> = {}): Promise<Card> {
  const { cards } = cardRepos(t);
  return cards.save(
    cards.create({
      projectId,
      code: unique('CARD').toUpperCase(),
      durationSeconds: 86400,
      deviceLimit: 1,
      status: 'unused',
      ...fields,
    }),
  );
}

/** A Connect login of `card` from `machine` as the one-statement writers take it, with its own request id and token hash. */
export function pendingLogin(
  projectId: string,
  card: Pick<Card, 'code'>,
  machine: string,
  requestId = unique('req'),
): PendingLogin {
  return {
    projectId,
    cardKey: card.code,
    machine,
    seated: false,
    log: {
      cardCode: card.code,
      machineCode: machine,
      ip: '203.0.113.9',
      family: 'connect',
      interface: 'card_login',
      resultCode: 0,
      requestId,
      tokenHash: randomBytes(32).toString('hex'),
    },
  };
}

/** A project of a fresh author, and the one-statement login writer a spec tests, with the statements to spy on. */
export async function loginWriterFixture<W>(
  t: TestApp,
  writerType: Type<W>,
): Promise<{ writer: W; statements: PreparedStatements; projectId: string }> {
  const author = (await (await AdminClient.asPlatformAdmin(t)).createAuthor()).client;
  return {
    writer: t.app.get(writerType),
    statements: t.app.get(PreparedStatements),
    projectId: (await author.createProject()).id,
  };
}
