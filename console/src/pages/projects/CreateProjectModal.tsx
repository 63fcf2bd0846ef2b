import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { createProject, projectKeys } from './project-queries';

/** A new project needs only its name; every setting starts at the service's default (editable afterwards). */
export function CreateProjectModal({ onClose, onCreated }: { onClose: () => void; onCreated: (project: Project) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const queries = useQueryClient();
  const create = useMutation({
    mutationFn: createProject,
    onSuccess: (project) => {
      void queries.invalidateQueries({ queryKey: projectKeys.all });
      onCreated(project);
    },
  });
  return (
    <Modal
      open
      title={t('projects.createTitle')}
      okText={t('common.create')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={create.isPending}
      destroyOnHidden
    >
      <Form form={form} name="new-project" layout="vertical" onFinish={({ name }) => create.mutate(name.trim())}>
        <Form.Item
          name="name"
          label={t('projects.name')}
          extra={t('projects.nameHelp')}
          rules={[{ required: true, whitespace: true }, { max: 100 }]}
        >
          <Input autoFocus maxLength={100} showCount />
        </Form.Item>
        {create.error && <ErrorAlert error={create.error} />}
      </Form>
    </Modal>
  );
}
