import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, InputNumber, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import {
  authorKeys,
  createAuthor,
  quotaValue,
  updateAuthor,
  type Author,
  type AuthorChange,
  type NewAuthor,
} from './platform-queries';

const MAX_INT32 = 2_147_483_647;
const USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;

function QuotaFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="daily_api_quota" label={t('platform.authors.apiQuota')} extra={t('platform.authors.quotaHelp')}>
        <InputNumber min={0} max={MAX_INT32} precision={0} placeholder={t('common.unlimited')} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="daily_verify_quota" label={t('platform.authors.verifyQuota')}>
        <InputNumber min={0} max={MAX_INT32} precision={0} placeholder={t('common.unlimited')} style={{ width: '100%' }} />
      </Form.Item>
    </>
  );
}

/** A new author account: user name, password (given to the author out of band) and daily quotas. */
export function CreateAuthorModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queries = useQueryClient();
  const [form] = Form.useForm<NewAuthor>();
  const create = useMutation({
    mutationFn: (values: NewAuthor) =>
      createAuthor({
        ...values,
        daily_api_quota: quotaValue(values.daily_api_quota),
        daily_verify_quota: quotaValue(values.daily_verify_quota),
      }),
    onSuccess: (author) => {
      void queries.invalidateQueries({ queryKey: authorKeys.all });
      void message.success(t('platform.authors.createdNotice', { name: author.username }));
      onClose();
    },
  });
  return (
    <Modal
      open
      title={t('platform.authors.new')}
      okText={t('common.create')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={create.isPending}
      destroyOnHidden
    >
      <Form form={form} name="new-author" layout="vertical" onFinish={(values) => create.mutate(values)}>
        <Form.Item
          name="username"
          label={t('platform.authors.username')}
          extra={t('platform.authors.usernameHelp')}
          rules={[{ required: true }, { pattern: USERNAME, message: t('platform.authors.usernameHelp') }]}
        >
          <Input autoFocus autoComplete="off" maxLength={32} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('platform.authors.password')}
          extra={t('platform.authors.passwordHelp')}
          rules={[{ required: true }, { min: 8, max: 128 }]}
        >
          <Input.Password autoComplete="new-password" maxLength={128} />
        </Form.Item>
        <QuotaFields />
        {create.error && <ErrorAlert error={create.error} />}
      </Form>
    </Modal>
  );
}

/** A change to one author: a new password, or new quotas. */
export function EditAuthorModal({ author, part, onClose }: { author: Author; part: 'password' | 'quotas'; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queries = useQueryClient();
  const [form] = Form.useForm<AuthorChange>();
  const save = useMutation({
    mutationFn: (values: AuthorChange) =>
      updateAuthor(
        author.id,
        part === 'password'
          ? { password: values.password }
          : { daily_api_quota: quotaValue(values.daily_api_quota), daily_verify_quota: quotaValue(values.daily_verify_quota) },
      ),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: authorKeys.all });
      void message.success(t('platform.authors.saved'));
      onClose();
    },
  });
  const title = `${part === 'password' ? t('platform.authors.resetPassword') : t('platform.authors.quotas')} · ${author.username}`;
  return (
    <Modal
      open
      title={title}
      okText={t('common.save')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        name={`author-${part}`}
        layout="vertical"
        initialValues={author}
        onFinish={(values) => save.mutate(values)}
      >
        {part === 'password' ? (
          <Form.Item
            name="password"
            label={t('platform.authors.newPassword')}
            extra={t('platform.authors.passwordHelp')}
            rules={[{ required: true }, { min: 8, max: 128 }]}
          >
            <Input.Password autoFocus autoComplete="new-password" maxLength={128} />
          </Form.Item>
        ) : (
          <QuotaFields />
        )}
        {save.error && <ErrorAlert error={save.error} />}
      </Form>
    </Modal>
  );
}
