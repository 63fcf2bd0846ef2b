import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ProgramCache } from '../core/cache/program-cache';
import { blacklisted } from '../core/errors/blacklisted';
import { noteClientRequest, type RequestContext } from '../http/request-context';
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

  /** Throws BLACKLISTED (saying device or address) when the caller's address or `device` is on the program's live list. */
  async check(program: BlacklistedProgram, address: string, device: string | undefined, request?: RequestContext): Promise<void> {
    const { project } = program;
    const list = await this.cache.through(project.programId, 'login-blacklist', () => this.load(project.id), request);
    if (list.length === 0) return;
    let matcher = compiled.get(list);
    if (!matcher) compiled.set(list, (matcher = new BlacklistMatcher(list)));
    const entry = matcher.match(address, device, Date.now());
    if (!entry) return;
    // The request log keeps which entry refused it; its explain names the entry (decisions §22).
    noteClientRequest(request, { reason: `login blacklist entry ${entry.id}: ${entry.kind} ${entry.value}` });
    throw blacklisted(entry.kind);
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
