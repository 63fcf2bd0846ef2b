import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { PlatformSettings } from '../platform/platform-settings.entity';
import { AdminAuthController } from './admin-auth.controller';
import { AdminAuthGuard } from './admin-auth.guard';
import { AdminAuthService } from './admin-auth.service';
import { AgentChain } from './agent-chain';
import { AdminToken } from './admin-token.entity';
import { AdminUser } from './admin-user.entity';
import { ApiKeyAuthenticator } from './api-keys/api-key-authenticator';
import { ApiKey } from './api-keys/api-key.entity';
import { ApiKeyHasher } from './api-keys/api-key-secret';
import { AppConfig } from '../config/app-config';
import { loadEncryptionKey } from '../core/crypto/encryption-key';
import { AdminRecoveryCode } from './two-factor/admin-recovery-code.entity';
import { StepUpGuard } from './two-factor/step-up';
import { TwoFactorPolicy } from './two-factor/two-factor-policy';
import { TwoFactorController } from './two-factor/two-factor.controller';
import { TwoFactorService } from './two-factor/two-factor.service';

/**
 * Global: every admin controller guards itself with AdminAuthGuard (and step-up routes with
 * StepUpGuard). It brings the audit trail, whose interceptor @AdminAuth puts on every admin route.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AdminUser, AdminToken, AdminRecoveryCode, PlatformSettings, ApiKey]), AuditModule],
  controllers: [AdminAuthController, TwoFactorController],
  providers: [
    AdminAuthService,
    AgentChain,
    AdminAuthGuard,
    TwoFactorPolicy,
    TwoFactorService,
    StepUpGuard,
    ApiKeyAuthenticator,
    {
      provide: ApiKeyHasher,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new ApiKeyHasher(loadEncryptionKey(config)),
    },
  ],
  exports: [
    AdminAuthService,
    AdminAuthGuard,
    TwoFactorPolicy,
    TwoFactorService,
    StepUpGuard,
    ApiKeyAuthenticator,
    ApiKeyHasher,
    AuditModule,
    TypeOrmModule,
  ],
})
export class AdminAuthModule {}
