import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { SecretBox } from '../../core/crypto/secret-box';
import { hashToken, randomString } from '../../core/crypto/tokens';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { FailureLimiter } from '../../core/throttling/failure-limiter';
import { AdminSessionView } from '../admin-auth.view';
import { noteActor } from '../../common/audit-note';
import type { SignInClient } from '../../admin-kernel/sign-in-client';
import { AdminAuthService } from '../admin-auth.service';
import { AdminPrincipal } from '../../admin-kernel/admin-principal';
import { AdminUser } from '../../admin-kernel/admin-user.entity';
import { AdminRecoveryCode } from './admin-recovery-code.entity';
import { matchingStep, newTotpSecret, totpUri } from './totp';
import { TwoFactorEnrolmentView, TwoFactorRecoveryCodesView } from './two-factor.view';

const RECOVERY_CODE_COUNT = 10;
/** Unambiguous letters and digits: 10 of them are 50 random bits, typed as XXXXX-XXXXX. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Where a code is taken: a recovery code signs in or turns 2FA off, never confirms a step-up. */
type CodeUse = 'login' | 'disable' | 'confirm' | 'step-up';

const normalRecovery = (code: string) => code.replace(/-/g, '').toUpperCase();

/**
 * TOTP two-factor sign-in of admin accounts (RFC 6238). The secret is SecretBox-encrypted at rest
 * and answered only at enrolment. A code is accepted once: its time step must be later than the
 * last accepted one, checked and recorded by one conditional UPDATE, so two instances racing with
 * the same code accept it at most once. Every wrong code counts against the account and the
 * address through the FailureLimiter, like a wrong password.
 */
@Injectable()
export class TwoFactorService {
  constructor(
    @InjectRepository(AdminUser) private readonly users: Repository<AdminUser>,
    @InjectRepository(AdminRecoveryCode) private readonly recoveryCodes: Repository<AdminRecoveryCode>,
    private readonly dataSource: DataSource,
    private readonly box: SecretBox,
    private readonly limiter: FailureLimiter,
    private readonly config: AppConfig,
    private readonly auth: AdminAuthService,
  ) {}

  /** A new secret, pending until a first code confirms it; enrolling again replaces a pending one. */
  async enrol(principal: AdminPrincipal): Promise<TwoFactorEnrolmentView> {
    const secret = newTotpSecret();
    const { affected } = await this.users.update(
      { id: principal.id, totpEnabledAt: IsNull() },
      { totpSecret: this.box.encrypt(secret), totpLastStep: null },
    );
    if (!affected) throw new ServiceError(ErrorCode.TWO_FACTOR_ALREADY_ENABLED);
    return { secret, otpauth_uri: totpUri(secret, principal.username) };
  }

  /** The first code turns it on and answers the recovery codes, once. */
  async confirm(principal: AdminPrincipal, code: string, clientIp: string): Promise<TwoFactorRecoveryCodesView> {
    const user = await this.withSecret(principal.id);
    if (user.totpEnabledAt) throw new ServiceError(ErrorCode.TWO_FACTOR_ALREADY_ENABLED);
    if (!user.totpSecret)
      throw new ServiceError(ErrorCode.TWO_FACTOR_NOT_ENABLED, 'Enrol first: no two-factor secret is pending');
    return this.limited(user.id, clientIp, async () => {
      const step = matchingStep(this.box.decrypt(user.totpSecret!), code);
      if (step === null) throw invalidCode();
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => randomString(10, RECOVERY_ALPHABET));
      await this.dataSource.transaction(async (manager) => {
        const { affected } = await manager
          .createQueryBuilder()
          .update(AdminUser)
          .set({ totpEnabledAt: () => 'now()', totpLastStep: String(step) })
          .where('id = :id AND totp_enabled_at IS NULL AND totp_secret = :secret', { id: user.id, secret: user.totpSecret })
          .execute();
        if (!affected) throw new ServiceError(ErrorCode.TWO_FACTOR_ALREADY_ENABLED);
        await manager.delete(AdminRecoveryCode, { userId: user.id });
        await manager.insert(
          AdminRecoveryCode,
          codes.map((c) => ({ userId: user.id, codeHash: hashToken(c) })),
        );
      });
      return { recovery_codes: codes.map((c) => `${c.slice(0, 5)}-${c.slice(5)}`) };
    });
  }

  /** Turning it off needs a code (or a recovery code: the device may be what was lost). */
  async disable(principal: AdminPrincipal, code: string, clientIp: string): Promise<void> {
    const user = await this.enabledUser(principal.id);
    await this.limited(user.id, clientIp, () => this.accept(user, code, 'disable'));
    await this.dataSource.transaction(async (manager) => {
      await manager.update(AdminUser, { id: user.id }, { totpSecret: null, totpEnabledAt: null, totpLastStep: null });
      await manager.delete(AdminRecoveryCode, { userId: user.id });
    });
  }

  /** The second login step: the challenge of a right password and a code give the token. */
  async completeLogin(challenge: string, code: string, client: SignInClient): Promise<AdminSessionView> {
    const challenged = await this.auth.challengedUser(challenge);
    const user = await this.withSecret(challenged.id);
    noteActor(client, user); // the audit trail's who, for this route without a token
    await this.limited(user.id, client.ip, () => this.accept(user, code, 'login'));
    await this.auth.spendChallenge(challenge);
    return this.auth.issueToken(user);
  }

  /** Step-up: a fresh TOTP code of an account with 2FA on (an account without it passes; see decisions). */
  async stepUp(principal: AdminPrincipal, code: string | undefined, clientIp: string): Promise<void> {
    if (!principal.twoFactorEnabled) return;
    if (!code) throw new ServiceError(ErrorCode.TWO_FACTOR_REQUIRED);
    const user = await this.enabledUser(principal.id);
    await this.limited(user.id, clientIp, () => this.accept(user, code, 'step-up'));
  }

  private limited<T>(userId: string, clientIp: string, attempt: () => Promise<T>): Promise<T> {
    const policy = {
      name: 'admin-2fa',
      limit: this.config.ADMIN_LOGIN_ATTEMPTS_PER_MINUTE,
      failure: ErrorCode.TWO_FACTOR_CODE_INVALID,
    };
    return this.limiter.guard(policy, { account: userId, address: clientIp }, attempt);
  }

  /** Accepts a TOTP code of a later step than the last accepted, or an unused recovery code where allowed. */
  private async accept(user: AdminUser, code: string, use: CodeUse): Promise<void> {
    const step = matchingStep(this.box.decrypt(user.totpSecret!), code);
    if (step !== null) {
      const { affected } = await this.users
        .createQueryBuilder()
        .update(AdminUser)
        .set({ totpLastStep: String(step) })
        .where('id = :id AND totp_enabled_at IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < :step)', {
          id: user.id,
          step,
        })
        .execute();
      if (affected) return;
    } else if (use === 'login' || use === 'disable') {
      const { affected } = await this.recoveryCodes
        .createQueryBuilder()
        .update(AdminRecoveryCode)
        .set({ usedAt: () => 'now()' })
        .where('user_id = :id AND code_hash = :hash AND used_at IS NULL', { id: user.id, hash: hashToken(normalRecovery(code)) })
        .execute();
      if (affected) return;
    }
    throw invalidCode();
  }

  private async withSecret(id: string): Promise<AdminUser> {
    const user = await this.users.createQueryBuilder('u').addSelect('u.totpSecret').where('u.id = :id', { id }).getOne();
    if (!user) throw new ServiceError(ErrorCode.UNAUTHENTICATED);
    return user;
  }

  private async enabledUser(id: string): Promise<AdminUser> {
    const user = await this.withSecret(id);
    if (!user.totpEnabledAt || !user.totpSecret) throw new ServiceError(ErrorCode.TWO_FACTOR_NOT_ENABLED);
    return user;
  }
}

function invalidCode(): ServiceError {
  return new ServiceError(ErrorCode.TWO_FACTOR_CODE_INVALID);
}
