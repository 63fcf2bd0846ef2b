import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects/projects.module';
import { MailAttempt } from './mail-attempt.entity';
import { MailDispatcher } from './mail-dispatcher';
import { MailMessage } from './mail-message.entity';
import { MailMessagesRepository } from './mail-messages.repository';
import { MailOutbox } from './mail-outbox';
import { MailsController } from './mails.controller';
import { MailsService } from './mails.service';

/** E-mail (decisions §26): the outbox other modules enqueue into (MailOutbox), the dispatcher every instance runs, the mail log. */
@Module({
  imports: [TypeOrmModule.forFeature([MailMessage, MailAttempt]), ProjectsModule],
  controllers: [MailsController],
  providers: [MailMessagesRepository, MailOutbox, MailDispatcher, MailsService],
  exports: [MailOutbox],
})
export class MailModule {}
