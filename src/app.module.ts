import { DynamicModule, Module } from '@nestjs/common';
import { AdminAuthModule } from './admin-auth/admin-auth.module';
import { AgentsModule } from './agents/agents.module';
import { OrdersModule } from './orders/orders.module';
import { ShopModule } from './shop/shop.module';
import { ApiKeysModule } from './admin-auth/api-keys/api-keys.module';
import { AppUsersModule } from './app-users/app-users.module';
import { AnnouncementsModule } from './announcements/announcements.module';
import { AuthorsModule } from './authors/authors.module';
import { BackupsModule } from './backup/backups.module';
import { backupBeforeUpgrade } from './backup/upgrade-backup';
import { CardsModule } from './cards/cards.module';
import { ConnectModule } from './connect/connect.module';
import { PortalModule } from './portal/portal.module';
import { SdkModule } from './sdk/sdk.module';
import { V3Module } from './v3/v3.module';
import { BaselineController } from './bench/baseline.controller';
import { AppConfig } from './config/app-config';
import { CoreModule } from './core/core.module';
import { HealthController } from './http/health/health.controller';
import { HttpModule } from './http/http.module';
import { JsonLogger } from './core/logging/json-logger';
import { LegacyInfoModule } from './legacy/info/legacy-info.module';
import { LegacyModule } from './legacy/legacy.module';
import { VerifyModule } from './legacy/verify/verify.module';
import { DatabaseModule } from './database/database.module';
import { EventsModule } from './events/events.module';
import { FilesModule } from './files/files.module';
import { LoginLogsModule } from './login-logs/login-logs.module';
import { LoginBlacklistModule } from './login-blacklist/login-blacklist.module';
import { MailModule } from './mail/mail.module';
import { PlatformModule } from './platform/platform.module';
import { ProjectsModule } from './projects/projects.module';
import { RemoteVariablesModule } from './remote-variables/remote-variables.module';
import { UsageModule } from './usage/usage.module';
import { VersionsModule } from './versions/versions.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logger: JsonLogger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, logger),
        HttpModule.forRoot(config),
        DatabaseModule.forRoot(backupBeforeUpgrade),
        EventsModule,
        // Client routes first: Express tries routes in the order they were registered, one pattern
        // after another, and a client's request is what the service answers most (the admin routes
        // behind them cost about 1.5 % of a heartbeat's CPU when they came first). Their paths share
        // no pattern with the admin routes, so the order decides no match.
        SdkModule,
        V3Module,
        ConnectModule,
        LegacyModule,
        LegacyInfoModule,
        VerifyModule,
        PortalModule,
        AdminAuthModule,
        ApiKeysModule,
        AuthorsModule,
        PlatformModule,
        ProjectsModule,
        CardsModule,
        AnnouncementsModule,
        LoginLogsModule,
        LoginBlacklistModule,
        FilesModule,
        VersionsModule,
        UsageModule,
        AppUsersModule,
        RemoteVariablesModule,
        MailModule,
        WebhooksModule,
        AgentsModule,
        OrdersModule,
        ShopModule,
        BackupsModule,
      ],
      // The benchmark's bare route (bench/run.ts) exists only when asked for.
      controllers: [HealthController, ...(config.BENCH_BASELINE === '1' ? [BaselineController] : [])],
    };
  }
}
