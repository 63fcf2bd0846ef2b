import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminUser } from '../admin-kernel/admin-user.entity';
import { CardType } from '../cards/types/card-type.entity';
import { MailMessage } from '../mail/mail-message.entity';
import { MailModule } from '../mail/mail.module';
import { OrdersModule } from '../orders/orders.module';
import { PlatformModule } from '../platform/platform.module';
import { Project } from '../projects/project.entity';
import { ProjectsModule } from '../projects/projects.module';
import { Checkout } from './checkout.entity';
import { CheckoutsAdminController } from './checkouts-admin.controller';
import { CheckoutDelivery } from './checkout-delivery';
import { CheckoutsRepository } from './checkouts.repository';
import { CheckoutsService } from './checkouts.service';
import { PaymentNotificationsService } from './payment-notifications.service';
import { PaymentProviderSetting } from './payment-provider-setting.entity';
import { PAYMENT_PROVIDER_PROVIDERS, PaymentProviders } from './payment-providers';
import { PaymentProvidersRepository } from './payment-providers.repository';
import { PaymentRefusal } from './payment-refusal.entity';
import { PaymentRefusalsRepository } from './payment-refusals.repository';
import { PaymentSettingsService } from './payment-settings.service';
import { PaymentsController } from './payments.controller';
import { ShopNotifyController } from './shop-notify.controller';
import { ShopController } from './shop.controller';
import { StockCardsRepository } from './stock-cards.repository';
import { StorefrontCatalogService } from './storefront-catalog.service';

/**
 * Selling online (decisions §26; docs/shop-integration.md): checkouts of a program's card types
 * for sale, stock reservations, the payment providers' settings and notifications, and the §19
 * order each payment makes, and the storefront page's catalogue. More providers build on it.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PaymentProviderSetting, Checkout, PaymentRefusal, Project, CardType, AdminUser, MailMessage]),
    ProjectsModule,
    PlatformModule,
    OrdersModule,
    MailModule,
  ],
  controllers: [ShopController, ShopNotifyController, PaymentsController, CheckoutsAdminController],
  providers: [
    ...PAYMENT_PROVIDER_PROVIDERS,
    PaymentProviders,
    PaymentProvidersRepository,
    CheckoutsRepository,
    PaymentRefusalsRepository,
    StockCardsRepository,
    PaymentSettingsService,
    CheckoutsService,
    StorefrontCatalogService,
    CheckoutDelivery,
    PaymentNotificationsService,
  ],
  exports: [PaymentNotificationsService, PaymentProvidersRepository],
})
export class ShopModule {}
