import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Project } from '../projects/project.entity';
import { AuditEntry } from './audit-entry.entity';
import { AuditController } from './audit.controller';
import { AdminWritesTrail } from '../admin-kernel/admin-checks';
import { AuditTrailInterceptor } from './audit.interceptor';
import { AuditTrail } from './audit-trail.service';

/** Imported and exported by the global AdminAuthModule: the trail behind the AuditInterceptor that @AdminAuth puts on every admin route. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntry, Project])],
  controllers: [AuditController],
  providers: [AuditTrail, AuditTrailInterceptor, { provide: AdminWritesTrail, useExisting: AuditTrailInterceptor }],
  exports: [AuditTrail, AdminWritesTrail],
})
export class AuditModule {}
