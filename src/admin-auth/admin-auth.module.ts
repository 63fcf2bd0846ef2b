import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { PlatformSettings } from '../platform/platform-settings.entity';
import { AdminAuthController } from './admin-auth.controller';
import { AdminTokenCheck } from './admin-token-check';
import { AccountSessions, AdminSignInCheck, StepUpCheck } from '../admin-kernel/admin-checks';
import { AdminAuthService } from './admin-auth.service';
import { AgentChain } from './agent-chain';
import { AdminToken } from './admin-token.entity';
import { AdminUser } from '../admin-kernel/admin-user.entity';
import { ApiKeyAuthenticator } from './api-keys/api-key-authenticator';
import { ApiKey } from './api-keys/api-key.entity';
import { ApiKeyHasher } from './api-keys/api-key-secret';
import { AppConfig } from '../config/app-config';
import { loadEncryptionKey } from '../core/crypto/encryption-key';
import { AdminRecoveryCode } from './two-factor/admin-recovery-code.entity';
import { StepUpCodeCheck } from './two-factor/step-up-code-check';
import { TwoFactorPolicy } from './two-factor/two-factor-policy';
import { TwoFactorController } from './two-factor/two-factor.controller';
import { TwoFactorService } from './two-factor/two-factor.service';

/**
 * Global: every admin controller's AdminAuthGuard (admin-kernel) hands its request to the
 * AdminSignInCheck provided here, a step-up route's StepUpGuard to the StepUpCheck, and the
 * resources end an account's sessions through AccountSessions. It brings the audit trail, whose
 * interceptor @AdminAuth puts on every admin route.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AdminUser, AdminToken, AdminRecoveryCode, PlatformSettings, ApiKey]), AuditModule],
  controllers: [AdminAuthController, TwoFactorController],
  providers: [
    AdminAuthService,
    AgentChain,
    AdminTokenCheck,
    TwoFactorPolicy,
    TwoFactorService,
    StepUpCodeCheck,
    ApiKeyAuthenticator,
    { provide: AdminSignInCheck, useExisting: AdminTokenCheck },
    { provide: StepUpCheck, useExisting: StepUpCodeCheck },
    { provide: AccountSessions, useExisting: AdminAuthService },
    {
      provide: ApiKeyHasher,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new ApiKeyHasher(loadEncryptionKey(config)),
    },
  ],
  exports: [
    AdminAuthService,
    AdminSignInCheck,
    StepUpCheck,
    AccountSessions,
    TwoFactorPolicy,
    TwoFactorService,
    ApiKeyAuthenticator,
    ApiKeyHasher,
    AuditModule,
    TypeOrmModule,
  ],
})
export class AdminAuthModule {}
