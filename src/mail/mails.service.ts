import { Injectable } from '@nestjs/common';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { Page, pageOf, PageQuery } from '../common/paging';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { ProjectAccess } from '../projects/project-access';
import { MailDispatcher } from './mail-dispatcher';
import { MailMessagesRepository } from './mail-messages.repository';
import { MailView, toMailView } from './mail.view';

/** A project's mail log (decisions §26). Tenancy is the projects' (ProjectAccess). */
@Injectable()
export class MailsService {
  constructor(
    private readonly mails: MailMessagesRepository,
    private readonly access: ProjectAccess,
    private readonly dispatcher: MailDispatcher,
  ) {}

  /** The project's mails, newest first, each with every attempt. */
  async list(actor: AdminPrincipal, projectId: string, query: PageQuery): Promise<Page<MailView>> {
    const project = await this.access.find(actor, projectId);
    const total = await this.mails.countOfProject(project.id);
    const rows = await this.mails.pageOfProject(project.id, query.page_size, query.skip);
    return pageOf(
      rows.map((r) => toMailView(r.mail, r.attempts)),
      total,
      query,
    );
  }

  /** Sends a mail again now, whatever its state: a failed one gets one more attempt, a sent one is sent once more. */
  async resend(actor: AdminPrincipal, projectId: string, mailId: string): Promise<MailView> {
    const project = await this.access.find(actor, projectId);
    if (!(await this.mails.resend(project.id, mailId))) throw new ServiceError(ErrorCode.MAIL_NOT_FOUND);
    this.dispatcher.kick();
    const row = (await this.mails.find(project.id, mailId))!;
    return toMailView(row.mail, row.attempts);
  }
}
