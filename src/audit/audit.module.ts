import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Project } from '../projects/project.entity';
import { AuditEntry } from './audit-entry.entity';
import { AuditController } from './audit.controller';
import { AuditInterceptor } from './audit.interceptor';
import { AuditTrail } from './audit-trail.service';

/** Imported by the global AdminAuthModule, whose @AdminAuth puts AuditInterceptor on every admin route. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntry, Project])],
  controllers: [AuditController],
  providers: [AuditTrail, AuditInterceptor],
  exports: [AuditTrail, AuditInterceptor],
})
export class AuditModule {}
