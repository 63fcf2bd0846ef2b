import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ProgramCache } from '../core/cache/program-cache';
import type { RequestMemo } from '../core/request-memo';
import { LoginBlacklistEntry } from './login-blacklist-entry.entity';
import { BlacklistMatcher, CachedBlacklistEntry } from '../common/blacklist-matcher';

/** Compiled once per cached list: the hot cache hands out the same frozen array until its generation moves. */
const compiled = new WeakMap<readonly CachedBlacklistEntry[], BlacklistMatcher>();

/** What the check needs of a client program (access/client-program.ts; login-blacklist sits below access). */
export interface BlacklistedProgram {
  project: { id: string; programId: string };
}

/**
 * The login blacklist as client routes apply it (decisions §24): the project's entries ride in the
 * program's hot-cache scope, whose generation the request has already read for the program itself,
 * so a check costs no round trip while the list is cached; the admin resource moves the generation.
 */
@Injectable()
export class LoginBlacklist {
  constructor(
    @InjectRepository(LoginBlacklistEntry) private readonly entries: Repository<LoginBlacklistEntry>,
    private readonly cache: ProgramCache,
  ) {}

  /** The entry of the program's live list that the caller's address or `device` is on; null when none. */
  async match(
    program: BlacklistedProgram,
    address: string,
    device: string | undefined,
    memo?: RequestMemo,
  ): Promise<CachedBlacklistEntry | null> {
    const { project } = program;
    const list = await this.cache.through(project.programId, 'login-blacklist', () => this.load(project.id), memo);
    if (list.length === 0) return null;
    let matcher = compiled.get(list);
    if (!matcher) compiled.set(list, (matcher = new BlacklistMatcher(list)));
    return matcher.match(address, device, Date.now());
  }

  private async load(projectId: string): Promise<CachedBlacklistEntry[]> {
    const rows = await this.entries.find({ where: { projectId }, order: { id: 'ASC' } });
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      value: row.value,
      note: row.note,
      expiresAt: row.expiresAt?.getTime() ?? null,
    }));
  }
}
