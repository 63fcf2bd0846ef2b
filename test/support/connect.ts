import { getRepositoryToken } from '@nestjs/typeorm';
import type { Response } from 'supertest';
import { Repository } from 'typeorm';
import { Announcement } from '../../src/announcements/announcement.entity';
import { ConnectCustomization } from '../../src/connect/connect-customization.entity';
import { ProgramCache } from '../../src/core/cache/program-cache';
import { LoginLog } from '../../src/login-logs/login-log.entity';
import { Project } from '../../src/projects/project.entity';
import { cardRepos } from './cards';
import { TestApp } from './test-app';

/** `YYYY-MM-DD HH:MM:SS` (spec: Connect success `data.expires_at`), as in the standard family. */
export { TIMESTAMP } from './standard';

/** A Connect login as an old client sends it: form-encoded POST to /connect/{program_id} (or /conncet). */
export function connectLogin(
  t: TestApp,
  programId: string,
  body: Record<string, string>,
  path: 'connect' | 'conncet' = 'connect',
) {
  return t.http().post(`/${path}/${programId}`).type('form').send(body);
}

export function connectRepos(t: TestApp) {
  return {
    ...cardRepos(t),
    projects: t.app.get<Repository<Project>>(getRepositoryToken(Project)),
    announcements: t.app.get<Repository<Announcement>>(getRepositoryToken(Announcement)),
    customizations: t.app.get<Repository<ConnectCustomization>>(getRepositoryToken(ConnectCustomization)),
  };
}

/**
 * Makes a project pass the Connect opening check in every opening mode (basic package on, a plan
 * level above any minimum the tests set, the self-service switch on): projects that are not about
 * the opening mode stay reachable while a test of the file switches the platform's opening mode.
 */
export async function openConnectInEveryMode(t: TestApp, projectId: string): Promise<void> {
  await updateProgramSettings(t, projectId, { basicPackage: true, planLevel: 1000, connectEnabled: true });
}

/**
 * Arranges project settings directly in the database, then drops the program's cached client data
 * as every admin write does (client routes read programs through the shared program cache).
 */
export async function updateProgramSettings(
  t: TestApp,
  projectId: string,
  settings: Partial<Pick<Project, 'basicPackage' | 'planLevel' | 'connectEnabled' | 'status' | 'verificationEnabled'>>,
): Promise<void> {
  const { projects } = connectRepos(t);
  await projects.update({ id: projectId }, settings);
  const { programId } = await projects.findOneByOrFail({ id: projectId });
  await t.app.get(ProgramCache).invalidate(programId);
}

/**
 * Asserts the exact Connect failure envelope `{status:false, code:-N, reason, request_id}` with its
 * HTTP status; the request id is the one of the X-Request-Id header.
 */
export function expectConnectFailure(res: Response, httpStatus: number, code: number): void {
  expect({ http: res.status, body: res.body }).toStrictEqual({
    http: httpStatus,
    body: { status: false, code, reason: expect.any(String), request_id: res.headers['x-request-id'] },
  });
  expect(code).toBeLessThan(0);
  expect(res.body.reason.length).toBeGreaterThan(0);
}

/** The login-log rows written for one request. */
export function logRowsOf(t: TestApp, requestId: string): Promise<LoginLog[]> {
  return cardRepos(t).logs.findBy({ requestId });
}

/** Asserts that exactly one login-log row was written for the answer, with this positive result code. */
export async function expectOneLogRow(t: TestApp, res: Response, resultCode: number, projectId?: string): Promise<LoginLog> {
  const rows = await logRowsOf(t, res.headers['x-request-id']);
  expect(rows.map((r) => ({ family: r.family, interface: r.interface, resultCode: r.resultCode }))).toEqual([
    { family: 'connect', interface: 'card_login', resultCode },
  ]);
  if (projectId !== undefined) expect(rows[0].projectId).toBe(projectId);
  return rows[0];
}

/** A valid 8-digit program ID that no project has. */
export async function unusedProgramId(t: TestApp): Promise<string> {
  const { projects } = connectRepos(t);
  for (;;) {
    const candidate = String(10_000_000 + Math.floor(Math.random() * 90_000_000));
    if (!(await projects.existsBy({ programId: candidate }))) return candidate;
  }
}
