import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Checkbox, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { toCents } from '../card-types/card-type-form';
import { agentKeys, createAgent, type Agent } from './agent-queries';

const USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;
const RIGHTS = ['can_create_sub_agents', 'can_ban', 'can_unbind'] as const;
type Right = (typeof RIGHTS)[number];
/** The deepest level an agent may have (decisions §19): its parent must be above it. */
const MAX_LEVEL = 3;

interface AgentDraft {
  username: string;
  password: string;
  project_ids: string[];
  discount_percent: number;
  rights: Right[];
  parent_agent_id?: string;
  low_balance?: number | null;
}

export interface ProjectOption {
  value: string;
  label: string;
}

/**
 * A new agent: its sign-in, the projects it sells for, its discount and rights, and (for an author)
 * its parent. An agent making a sub-agent is its parent, and offers only what it has itself; the
 * service checks the same (11012).
 */
export function CreateAgentModal({
  projects,
  parents,
  onClose,
}: {
  projects: ProjectOption[];
  parents?: Agent[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queries = useQueryClient();
  const [form] = Form.useForm<AgentDraft>();
  const texts = 'agents.form';
  const field = (name: string) => ({ label: t(`${texts}.${name}.label`), extra: t(`${texts}.${name}.help`) });
  const create = useMutation({
    mutationFn: ({ rights, low_balance, parent_agent_id, ...draft }: AgentDraft) =>
      createAgent({
        ...draft,
        username: draft.username.trim(),
        can_create_sub_agents: rights.includes('can_create_sub_agents'),
        can_ban: rights.includes('can_ban'),
        can_unbind: rights.includes('can_unbind'),
        ...(parent_agent_id ? { parent_agent_id } : {}),
        ...(low_balance ? { low_balance_cents: toCents(low_balance) } : {}),
      }),
    onSuccess: (agent) => {
      void queries.invalidateQueries({ queryKey: agentKeys.all });
      void message.success(t(`${texts}.created`, { name: agent.username }));
      onClose();
    },
  });
  // The only project there is is the one it sells for (also when the list arrives after the form opened).
  const only = projects.length === 1 ? projects[0].value : undefined;
  useEffect(() => {
    if (only && !(form.getFieldValue('project_ids') as string[] | undefined)?.length) form.setFieldValue('project_ids', [only]);
  }, [form, only]);
  const parentOptions = (parents ?? []).filter(
    (agent) => agent.can_create_sub_agents && agent.level < MAX_LEVEL && agent.status === 'active',
  );

  return (
    <Modal
      open
      title={t(`${texts}.title`)}
      okText={t('common.create')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={create.isPending}
      destroyOnHidden
      width={600}
    >
      <Form<AgentDraft>
        form={form}
        name="new-agent"
        layout="vertical"
        disabled={create.isPending}
        initialValues={{ discount_percent: 0, rights: [], project_ids: only ? [only] : [] }}
        onFinish={(draft) => create.mutate(draft)}
      >
        <Form.Item
          name="username"
          {...field('username')}
          rules={[{ required: true }, { pattern: USERNAME, message: t(`${texts}.username.help`) }]}
        >
          <Input autoFocus autoComplete="off" maxLength={32} />
        </Form.Item>
        <Form.Item name="password" {...field('password')} rules={[{ required: true }, { min: 8, max: 128 }]}>
          <Input.Password autoComplete="new-password" maxLength={128} />
        </Form.Item>
        <Form.Item name="project_ids" {...field('projects')} rules={[{ required: true, type: 'array', min: 1 }]}>
          <Select mode="multiple" options={projects} optionFilterProp="label" aria-label={t(`${texts}.projects.label`)} />
        </Form.Item>
        <Form.Item
          name="discount_percent"
          {...field('discount')}
          rules={[{ required: true }, { type: 'integer', min: 0, max: 100 }]}
        >
          <InputNumber min={0} max={100} precision={0} suffix="%" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="rights" {...field('rights')}>
          <Checkbox.Group options={RIGHTS.map((right) => ({ value: right, label: t(`agents.rights.${right}`) }))} />
        </Form.Item>
        {parents && (
          <Form.Item name="parent_agent_id" {...field('parent')}>
            <Select
              allowClear
              placeholder={t(`${texts}.parent.none`)}
              aria-label={t(`${texts}.parent.label`)}
              options={parentOptions.map((agent) => ({
                value: agent.id,
                label: `${agent.username} · ${t('agents.levelN', { level: agent.level })}`,
              }))}
            />
          </Form.Item>
        )}
        <Form.Item name="low_balance" {...field('lowBalance')} rules={[{ type: 'number', min: 0, max: 10_000_000 }]}>
          <InputNumber min={0} precision={2} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
      {create.error && <ErrorAlert error={create.error} />}
    </Modal>
  );
}
