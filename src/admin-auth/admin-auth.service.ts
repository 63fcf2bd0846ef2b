import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IsNull, LessThan, Not, Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { decoyHash, hashPassword, verifyPassword } from '../core/crypto/passwords';
import { hashToken, newToken, randomString } from '../core/crypto/tokens';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { JsonLogger } from '../core/logging/json-logger';
import { FailureLimiter } from '../core/throttling/failure-limiter';
import { isUniqueViolation } from '../database/pg-errors';
import { AdminToken } from './admin-token.entity';
import { AdminUser } from '../admin-kernel/admin-user.entity';
import { newAdminSessionToken } from './admin-session-token';
import { AdminSessionView } from './admin-auth.view';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { SharedStore } from '../core/store/shared-store';
import { AdminLoginChallengeView } from './two-factor/two-factor.view';
import { noteActor, noteChange } from '../common/audit-note';
import type { SignInClient } from '../admin-kernel/sign-in-client';
import { TwoFactorPolicy } from './two-factor/two-factor-policy';
import { AgentChain } from './agent-chain';
import { AccountSessions } from '../admin-kernel/admin-checks';
import { ApiKey } from './api-keys/api-key.entity';

/** The second login step must follow within this time; the challenge is good for one sign-in. */
const CHALLENGE_TTL_SECONDS = 300;
const challengeKey = (challenge: string) => `admin-2fa-challenge:${hashToken(challenge)}`;

/** Back-office login, bearer tokens (stored hashed, expiring) and the bootstrap platform admin. */
@Injectable()
export class AdminAuthService implements OnApplicationBootstrap, AccountSessions {
  constructor(
    @InjectRepository(AdminUser) private readonly users: Repository<AdminUser>,
    @InjectRepository(AdminToken) private readonly tokens: Repository<AdminToken>,
    @InjectRepository(ApiKey) private readonly apiKeys: Repository<ApiKey>,
    private readonly config: AppConfig,
    private readonly logger: JsonLogger,
    private readonly limiter: FailureLimiter,
    private readonly store: SharedStore,
    private readonly policy: TwoFactorPolicy,
    private readonly agentChain: AgentChain,
  ) {}

  /**
   * Wrong passwords are limited per account from any address, and per address over any accounts
   * (ADMIN_LOGIN_ATTEMPTS_PER_MINUTE each): neither many names from one address nor one name from
   * many addresses gets more guesses.
   */
  async login(username: string, password: string, client: SignInClient): Promise<AdminSessionView | AdminLoginChallengeView> {
    return this.passwordGuessing(username, client.ip, () => this.checkedLogin(username, password, client));
  }

  /** Wrong admin passwords, at the login or at a password change, count on one limit per account and per address. */
  private passwordGuessing<T>(username: string, clientIp: string, attempt: () => Promise<T>): Promise<T> {
    const policy = {
      name: 'admin-login',
      limit: this.config.ADMIN_LOGIN_ATTEMPTS_PER_MINUTE,
      failure: ErrorCode.UNAUTHENTICATED,
    };
    return this.limiter.guard(policy, { account: username.toLowerCase(), address: clientIp }, attempt);
  }

  /**
   * The account's own new password (`POST /auth/password`, docs/decisions.md "Own password"). The
   * current password must be right: a wrong one is the login's refusal (11001, with
   * `details` naming `current_password`: the token itself is good) and counts with the login's
   * wrong passwords, so a stolen token buys no extra guesses. The hash is replaced only while it is
   * still the one the current password was checked against (one conditional UPDATE): of two changes
   * at once exactly one wins, and the other is refused as a wrong current password. Then every other
   * token of the account ends; the calling one and the account's API keys stay (its owner changed it).
   */
  async changeOwnPassword(principal: AdminPrincipal, current: string, next: string, clientIp: string): Promise<void> {
    if (current === next) {
      throw new ServiceError(ErrorCode.BAD_REQUEST, 'The new password must differ from the current one', {
        details: ['new_password must differ from current_password'],
      });
    }
    await this.passwordGuessing(principal.username, clientIp, async () => {
      const user = await this.users.findOneBy({ id: principal.id });
      if (!user || !(await verifyPassword(user.passwordHash, current))) throw wrongCurrentPassword();
      const { affected } = await this.users.update(
        { id: user.id, passwordHash: user.passwordHash },
        { passwordHash: await hashPassword(next) },
      );
      if (!affected) throw wrongCurrentPassword(); // another change came first: this current password is no more
    });
    const ended = await this.revokeAll(principal.id, principal.tokenHash);
    // The trail says that it changed and what it ended, never a password (redacted by name anyway).
    noteChange(principal, {
      resourceId: principal.id,
      before: null,
      after: { password: 'changed', other_sessions_ended: ended },
    });
  }

  /**
   * A right password on an account with two-factor sign-in gives no token yet: a challenge (random,
   * stored hashed in the shared store for 5 minutes) that `POST /auth/login/2fa` trades for one
   * with a code. Accounts without it keep the one-step contract.
   */
  private async checkedLogin(
    username: string,
    password: string,
    client: SignInClient,
  ): Promise<AdminSessionView | AdminLoginChallengeView> {
    const user = await this.users.createQueryBuilder('u').where('lower(u.username) = lower(:username)', { username }).getOne();
    const valid = await verifyPassword(user?.passwordHash ?? (await decoyHash()), password);
    if (!user || !valid) throw new ServiceError(ErrorCode.UNAUTHENTICATED, 'Wrong username or password');
    if (!(await this.isActive(user))) throw new ServiceError(ErrorCode.ACCOUNT_DISABLED);
    noteActor(client, user);
    if (user.totpEnabledAt) {
      const challenge = newToken();
      await this.store.set(challengeKey(challenge), user.id, CHALLENGE_TTL_SECONDS);
      return {
        two_factor_required: true,
        challenge,
        expires_at: new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000).toISOString(),
      };
    }
    return this.issueToken(user);
  }

  /** The account a login challenge was issued to, while it is valid; the challenge is not spent. */
  async challengedUser(challenge: string): Promise<AdminUser> {
    const userId = await this.store.get(challengeKey(challenge));
    const user = userId ? await this.users.findOneBy({ id: userId }) : null;
    if (!user || !user.totpEnabledAt || !(await this.isActive(user))) {
      throw new ServiceError(ErrorCode.UNAUTHENTICATED, 'The sign-in challenge is invalid or expired; sign in again');
    }
    return user;
  }

  async spendChallenge(challenge: string): Promise<void> {
    await this.store.delete(challengeKey(challenge));
  }

  async issueToken(user: AdminUser): Promise<AdminSessionView> {
    const token = newAdminSessionToken();
    const expiresAt = new Date(Date.now() + this.config.ADMIN_TOKEN_TTL_SECONDS * 1000);
    await this.tokens.insert({ tokenHash: hashToken(token), userId: user.id, expiresAt });
    await this.tokens.delete({ userId: user.id, expiresAt: LessThan(new Date()) });
    const mustEnrol = !user.totpEnabledAt && (await this.policy.required());
    return {
      token,
      expires_at: expiresAt.toISOString(),
      role: user.role,
      ...(mustEnrol ? { two_factor_enrolment_required: true } : {}),
    };
  }

  /** An account acts while it is active, and an agent also while its author and the agents above it are. */
  async isActive(user: AdminUser): Promise<boolean> {
    return user.status === 'active' && (user.role !== 'agent' || (await this.agentChain.active(user.id)));
  }

  async logout(principal: AdminPrincipal): Promise<void> {
    await this.tokens.delete({ tokenHash: principal.tokenHash });
  }

  async authenticate(token: string): Promise<AdminPrincipal> {
    const tokenHash = hashToken(token);
    const row = await this.tokens.findOne({ where: { tokenHash }, relations: { user: true } });
    if (!row || row.expiresAt.getTime() <= Date.now() || !(await this.isActive(row.user))) {
      throw new ServiceError(ErrorCode.UNAUTHENTICATED, 'The admin token is invalid or expired');
    }
    return {
      id: row.user.id,
      username: row.user.username,
      role: row.user.role,
      tokenHash,
      twoFactorEnabled: row.user.totpEnabledAt !== null,
    };
  }

  /**
   * Ends every admin token of an account (used when it is disabled or its password changes), but
   * `keep` (the hash of the token of an account changing its own password); answers how many ended.
   */
  async revokeAll(userId: string, keep?: string): Promise<number> {
    const { affected } = await this.tokens.delete(keep === undefined ? { userId } : { userId, tokenHash: Not(keep) });
    return affected ?? 0;
  }

  /**
   * A password set by someone else (a platform admin for an author, an author or parent for an
   * agent) is the way back from a stolen account: its tokens end and its API keys are revoked, as a
   * thief may have made some. Disabling only suspends keys (they answer 401 until it is enabled).
   */
  async revokeAfterPasswordReset(userId: string): Promise<void> {
    await this.revokeAll(userId);
    await this.apiKeys.update({ ownerId: userId, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
  }

  /** Creates the first platform admin from ADMIN_USERNAME / ADMIN_PASSWORD if that account is missing. */
  async onApplicationBootstrap(): Promise<void> {
    const username = this.config.ADMIN_USERNAME;
    const exists = await this.users
      .createQueryBuilder('u')
      .where('lower(u.username) = lower(:username)', { username })
      .getExists();
    if (exists) return;
    let password = this.config.ADMIN_PASSWORD;
    let passwordFile: string | undefined;
    let pendingFile: string | undefined;
    if (!password) {
      password = randomString(20, 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789');
      mkdirSync(this.config.DATA_DIR, { recursive: true });
      passwordFile = join(this.config.DATA_DIR, 'admin-password.txt');
      // Written aside first and put in place only by the instance whose insert won: workers of a
      // clustered service (or instances sharing DATA_DIR) start together, and the file must hold
      // the password of the account that exists, not that of the last instance to write it.
      pendingFile = `${passwordFile}.${process.pid}`;
      writeFileSync(pendingFile, password + '\n', { mode: 0o600 });
    }
    try {
      await this.users.insert({ username, passwordHash: await hashPassword(password), role: 'platform_admin', status: 'active' });
      if (pendingFile && passwordFile) renameSync(pendingFile, passwordFile);
      this.logger.entry('info', 'bootstrap platform admin created', {
        username,
        password_source: passwordFile ? `generated into ${passwordFile}` : 'ADMIN_PASSWORD',
      });
    } catch (error) {
      if (pendingFile) rmSync(pendingFile, { force: true });
      if (!isUniqueViolation(error)) throw error; // another instance created it first
    }
  }
}

function wrongCurrentPassword(): ServiceError {
  return new ServiceError(ErrorCode.UNAUTHENTICATED, 'The current password is wrong', { details: ['current_password'] });
}
