import { Module } from '@nestjs/common';
import { PlatformModule } from '../platform/platform.module';
import { ProjectsModule } from '../projects/projects.module';
import { SigningModule } from '../signing/signing.module';
import { CardExpiryScan } from './card-expiry-scan';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** Webhooks (decisions §20): endpoints, the delivery log, the dispatcher every instance runs, and the scan for cards about to expire. */
@Module({
  imports: [ProjectsModule, PlatformModule, SigningModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookDispatcher, CardExpiryScan],
})
export class WebhooksModule {}
