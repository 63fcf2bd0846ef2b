import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type Mail = Schemas['MailView'];
export type MailAttempt = Schemas['MailAttemptView'];

export const mailKeys = { ofProject: (projectId: string) => ['mails', projectId] };

/** A page of the project's mails, newest first. */
export function mailListQuery(projectId: string, paging: { page: number; page_size: number }) {
  return queryOptions({
    queryKey: [...mailKeys.ofProject(projectId), paging],
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/mails', { params: { path: { id: projectId }, query: paging } })),
    // A queued mail is usually sent within seconds: look again while one waits.
    refetchInterval: (query) => (query.state.data?.items.some((m) => m.status === 'pending') ? 3000 : false),
  });
}

export function resendMail(projectId: string, mailId: string) {
  return unwrap(api.POST('/admin/v1/projects/{id}/mails/{mailId}/resend', { params: { path: { id: projectId, mailId } } }));
}
