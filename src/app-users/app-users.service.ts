import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { ClientCall, ClientRequest } from '../access/client-call';
import { ClientProgramDirectory } from '../access/client-program';
import { InterfaceGate, noteInterface } from '../access/interface-gate';
import { clientTimes, unixSeconds } from '../common/time';
import { AppConfig } from '../config/app-config';
import { decoyHash, hashPassword, verifyPassword } from '../core/crypto/passwords';
import { newToken } from '../core/crypto/tokens';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { ISO_TIME, LOCAL_TIME } from '../http/openapi/api-contract';
import { isUniqueViolation } from '../database/pg-errors';
import { SessionRevocations } from '../sessions/session-revocations';
import { SessionsService } from '../sessions/sessions.service';
import { usernameKey } from './app-user-rules';
import { AppUser } from './app-user.entity';
import { DomainEvents } from '../events/domain-events';
import { AppUserProfile, toProfile } from './app-user.view';
import { FailureLimiter } from '../core/throttling/failure-limiter';
import { decideMachine, MachineDecision, sessionFitsBinding } from './machine-policy';

export interface AppUserCredentials {
  username: string;
  password: string;
  machine_id: string;
}

interface Authenticated {
  user: AppUser;
  decision: MachineDecision;
}

export class RegisteredUser {
  @ApiProperty({ type: 'integer' }) user_id!: number;
  @ApiProperty() username!: string;
  @ApiProperty({ enum: ['active'] }) status!: 'active';
}

export class SdkUserLogin {
  @ApiProperty({ type: AppUserProfile }) profile!: AppUserProfile;
  @ApiProperty({ description: 'Bearer token of the user session (heartbeats)' }) session_token!: string;
  @ApiProperty(LOCAL_TIME) session_expires_at!: string;
  @ApiProperty(ISO_TIME) session_expires_at_iso!: string;
  @ApiProperty() machine_id!: string;
  @ApiProperty({ type: 'integer' }) heartbeat_interval_seconds!: number;
}

export class CompatUserLogin {
  @ApiProperty({ description: 'The compatible login token' }) token!: string;
  @ApiProperty({ type: AppUserProfile }) profile!: AppUserProfile;
  @ApiProperty() machine_id!: string;
}

export class UserHeartbeat {
  @ApiProperty({ type: 'integer' }) user_id!: number;
  @ApiProperty(LOCAL_TIME) session_expires_at!: string;
  @ApiProperty(ISO_TIME) session_expires_at_iso!: string;
  @ApiProperty({ type: 'integer', description: 'Unix seconds' }) server_time!: number;
}

/**
 * Program users as a client program sees them (decisions §6): register, login (SDK: plus an
 * `app_user` session; compatibility: a compatible token only) and the user heartbeat. The rules
 * (gate, throttling, credentials, ban, machine policy) are the same for every route.
 */
@Injectable()
export class AppUsersService {
  constructor(
    @InjectRepository(AppUser) private readonly users: Repository<AppUser>,
    private readonly dataSource: DataSource,
    private readonly sessions: SessionsService,
    private readonly revocations: SessionRevocations,
    private readonly directory: ClientProgramDirectory,
    private readonly gate: InterfaceGate,
    private readonly limiter: FailureLimiter,
    private readonly config: AppConfig,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Creates an active user. A taken name (any case) is USERNAME_TAKEN, also when registrations of
   * one name race: the unique index on (project, lower(username)) lets exactly one insert through.
   * The registering machine becomes the binding unless the project's policy is `free`.
   */
  async register(call: ClientCall, input: AppUserCredentials): Promise<RegisteredUser> {
    await this.gate.admit(call, 'user_register', input.machine_id);
    const { program } = call;
    const projectId = program.project.id;
    const taken = () => new ServiceError(ErrorCode.USERNAME_TAKEN);
    if (await this.byUsername(projectId, input.username).getExists()) throw taken();
    const passwordHash = await hashPassword(input.password);
    let id: number;
    try {
      // The event commits with the account (decisions §20).
      id = await this.dataSource.transaction(async (em) => {
        const { identifiers } = await em.insert(AppUser, {
          projectId,
          username: input.username,
          passwordHash,
          status: 'active',
          boundMachineId: program.project.userMachinePolicy === 'free' ? null : input.machine_id,
        });
        const userId = identifiers[0].id as number;
        await this.events.emit(em, projectId, 'user.registered', { user_id: userId, username: input.username });
        return userId;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
    return { user_id: id, username: input.username, status: 'active' };
  }

  /** SDK login: opens an `app_user` session on the login's machine. */
  async sdkLogin(call: ClientCall, input: AppUserCredentials): Promise<SdkUserLogin> {
    const { program } = call;
    const { user, decision } = await this.login(call, input);
    const { token, session } = await this.sessions.open({
      type: 'app_user',
      projectId: program.project.id,
      userId: user.id,
      machine: input.machine_id,
      expiresAt: new Date(Date.now() + program.project.sessionTtlSeconds * 1000),
      address: call.ip,
    });
    return {
      profile: toProfile(user, this.config.APP_TIMEZONE),
      session_token: token,
      ...this.times(session.expiresAt),
      machine_id: decision.answered,
      heartbeat_interval_seconds: program.project.heartbeatIntervalSeconds,
    };
  }

  /** Compatibility login: the same rules, a compatible token and no SDK session (spec, legacy routes). */
  async compatLogin(call: ClientCall, input: AppUserCredentials): Promise<CompatUserLogin> {
    const { user, decision } = await this.login(call, input);
    return { token: newToken(), profile: toProfile(user, this.config.APP_TIMEZONE), machine_id: decision.answered };
  }

  /**
   * Renews a user session after re-checking the user: banned, gone, or (under `rebind` and
   * `locked`) no longer bound to the session's machine ends the session for good.
   */
  async heartbeat(token: string, machine: string, caller: ClientRequest): Promise<UserHeartbeat> {
    const { session, user, program } = await this.sessions.resolve(token, 'app_user', machine, async (id) => {
      const found = await this.directory.byProjectId(id, caller.context);
      noteInterface(caller.context, 'user_heartbeat', machine);
      return found;
    });
    await this.gate.admit({ program, family: 'sdk', context: caller.context }, 'user_heartbeat', machine);
    if (!user) throw await this.sessions.end(session, 'user_deleted');
    if (user.status !== 'active') throw await this.sessions.end(session, 'user_banned');
    if (!sessionFitsBinding(program.project.userMachinePolicy, user.boundMachineId, session.machineCode))
      throw await this.sessions.end(session, 'device_unbound');
    const expiresAt = await this.sessions.renew(session, program.project.sessionTtlSeconds, null, caller.ip);
    return { user_id: user.id, ...this.times(expiresAt), server_time: unixSeconds() };
  }

  /**
   * The shared login rule, inside the failed-login limiter: gate, credentials (a decoy hash when the
   * name is unknown, so neither the answer nor its timing says which part was wrong), then under a
   * row lock the ban and the machine policy. Under `rebind` the user's earlier sessions end.
   */
  private async login(call: ClientCall, input: AppUserCredentials): Promise<Authenticated> {
    const { program } = call;
    const projectId = program.project.id;
    const scopes = { account: `${projectId}:${usernameKey(input.username)}`, address: call.ip, within: projectId };
    const policy = {
      name: 'app-user-login',
      limit: this.config.APP_USER_LOGIN_ATTEMPTS_PER_MINUTE,
      failure: ErrorCode.BAD_CREDENTIALS,
    };
    const result = await this.limiter.guard(policy, scopes, async () => {
      await this.gate.admit(call, 'user_login', input.machine_id);
      const found = await this.byUsername(projectId, input.username).addSelect('u.passwordHash').getOne();
      const valid = await verifyPassword(found?.passwordHash ?? (await decoyHash()), input.password);
      if (!found || !valid) throw new ServiceError(ErrorCode.BAD_CREDENTIALS);
      return this.dataSource.transaction(async (em): Promise<Authenticated> => {
        const user = await em
          .getRepository(AppUser)
          .createQueryBuilder('u')
          .setLock('pessimistic_write')
          .where('u.id = :id', { id: found.id })
          .getOne();
        if (!user) throw new ServiceError(ErrorCode.BAD_CREDENTIALS);
        if (user.status === 'banned') throw new ServiceError(ErrorCode.USER_BANNED);
        const decision = decideMachine(program.project.userMachinePolicy, user.boundMachineId, input.machine_id);
        if (!decision) throw new ServiceError(ErrorCode.MACHINE_MISMATCH);
        const now = new Date();
        await em.update(
          AppUser,
          { id: user.id },
          { lastLoginAt: now, ...(decision.changed ? { boundMachineId: decision.bound } : {}) },
        );
        user.lastLoginAt = now;
        user.boundMachineId = decision.bound;
        return { user, decision };
      });
    });
    // After the commit (the embedded database has one connection). A session a racing login opens
    // on the old machine meanwhile no longer fits the binding and ends at its next heartbeat.
    if (result.decision.revokeOthers) await this.revocations.revokeWhere(projectId, { userId: result.user.id }, 'device_unbound');
    return result;
  }

  private byUsername(projectId: string, username: string) {
    return this.users
      .createQueryBuilder('u')
      .where('u.project_id = :projectId AND lower(u.username) = lower(:username)', { projectId, username });
  }

  private times(sessionExpiresAt: Date) {
    return clientTimes(this.config.APP_TIMEZONE, { session_expires_at: sessionExpiresAt });
  }
}
