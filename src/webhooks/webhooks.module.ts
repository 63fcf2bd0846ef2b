import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '../mail/mail.module';
import { PlatformModule } from '../platform/platform.module';
import { ProjectsModule } from '../projects/projects.module';
import { SigningModule } from '../signing/signing.module';
import { CardExpiryNoticesRepository } from './card-expiry-notices.repository';
import { CardExpiryScan } from './card-expiry-scan';
import { WebhookAttempt } from './webhook-attempt.entity';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEvent } from './webhook-event.entity';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** Webhooks (decisions §20): endpoints, the delivery log, the dispatcher every instance runs, and the scan for cards about to expire. */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEndpoint, WebhookEvent, WebhookDelivery, WebhookAttempt]),
    ProjectsModule,
    PlatformModule,
    SigningModule,
    MailModule,
  ],
  controllers: [WebhooksController],
  providers: [
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    CardExpiryNoticesRepository,
    WebhooksService,
    WebhookDispatcher,
    CardExpiryScan,
  ],
})
export class WebhooksModule {}
