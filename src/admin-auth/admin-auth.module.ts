import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminAuthController } from './admin-auth.controller';
import { AdminAuthGuard } from './admin-auth.guard';
import { AdminAuthService } from './admin-auth.service';
import { AdminToken } from './admin-token.entity';
import { AdminUser } from './admin-user.entity';

/** Global: every admin controller guards itself with AdminAuthGuard. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AdminUser, AdminToken])],
  controllers: [AdminAuthController],
  providers: [AdminAuthService, AdminAuthGuard],
  exports: [AdminAuthService, AdminAuthGuard, TypeOrmModule],
})
export class AdminAuthModule {}
