import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { loadEncryptionKey } from '../core/crypto/encryption-key';
import { ProjectsModule } from '../projects/projects.module';
import { DownloadController } from './download.controller';
import { DownloadSigner } from './download-signer';
import { deriveDownloadKey } from './download-url';
import { StoredFile } from './file.entity';
import { FilesController } from './files.controller';
import { FilesService } from './files.service';

/** Uploaded files (admin API) and their signed downloads (`/api/download/{id}`). */
@Module({
  imports: [TypeOrmModule.forFeature([StoredFile]), ProjectsModule],
  controllers: [FilesController, DownloadController],
  providers: [
    FilesService,
    {
      provide: DownloadSigner,
      inject: [AppConfig],
      // The same key material as SecretBox (APP_ENCRYPTION_KEY or the generated key file), derived apart.
      useFactory: (config: AppConfig) =>
        new DownloadSigner(deriveDownloadKey(loadEncryptionKey(config)), config.DOWNLOAD_URL_TTL_SECONDS),
    },
  ],
  exports: [FilesService, DownloadSigner],
})
export class FilesModule {}
