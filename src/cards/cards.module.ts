import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { LoginLog } from '../login-logs/login-log.entity';
import { ProjectsModule } from '../projects/projects.module';
import { CardsAdminController } from './admin/cards-admin.controller';
import { CardImportRow } from './admin/card-import-row.entity';
import { CardBatchesService } from './admin/card-batches.service';
import { CardImportsService } from './admin/card-imports.service';
import { CardsAdminService } from './admin/cards-admin.service';
import { CardBatch } from './card-batch.entity';
import { CardCodeGenerator } from './card-codes';
import { CardDevice } from './card-device.entity';
import { CardUnbind } from './card-unbind.entity';
import { Card } from './card.entity';
import { CardLoginService } from './card-login.service';
import { RefusalLogWriter } from './refusal-log-writer';
import { NewDeviceLoginWriter } from './new-device-login-writer';
import { RepeatLoginWriter } from './repeat-login-writer';
import { CardCheckoutService } from './card-checkout.service';
import { CardUnbindService } from './card-unbind.service';
import { CardInfoService } from './card-info.service';
import { CardTopupService } from './card-topup.service';
import { SigningModule } from '../signing/signing.module';
import { LoginTokensService } from './login-tokens.service';
import { CardGuesses } from './card-guesses';
import { CardType } from './types/card-type.entity';
import { CardTypesController } from './types/card-types.controller';
import { CardTypesService } from './types/card-types.service';
import { TrialCardTypesModule } from './types/trial-card-types.module';
import { IdleDevices } from './idle-devices';
import { CardTrial } from './trials/card-trial.entity';
import { CardTrialsService } from './trials/card-trials.service';

/** Cards: the card rule and every operation on a card (login, unbind, top-up, info, checkout), and their administration. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Card, CardDevice, CardBatch, CardImportRow, CardType, CardTrial, CardUnbind, LoginLog]),
    ProjectsModule,
    AccessModule,
    SigningModule,
    TrialCardTypesModule,
  ],
  controllers: [CardsAdminController, CardTypesController],
  providers: [
    CardLoginService,
    RepeatLoginWriter,
    NewDeviceLoginWriter,
    RefusalLogWriter,
    CardUnbindService,
    CardCheckoutService,
    CardTopupService,
    CardInfoService,
    LoginTokensService,
    CardsAdminService,
    CardImportsService,
    CardBatchesService,
    CardCodeGenerator,
    CardGuesses,
    CardTypesService,
    IdleDevices,
    CardTrialsService,
  ],
  exports: [
    TypeOrmModule,
    CardBatchesService,
    CardsAdminService,
    CardTypesService,
    CardLoginService,
    CardUnbindService,
    CardCheckoutService,
    CardTopupService,
    CardInfoService,
    LoginTokensService,
    CardGuesses,
    IdleDevices,
    CardTrialsService,
  ],
})
export class CardsModule {}
