import { CreditCardOutlined, DeleteOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Space, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { PageLoading } from '../../components/PageLoading';
import { deleteProject, projectKeys, projectQuery } from './project-queries';
import { ProjectSettingsForm } from './ProjectSettingsForm';
import { SecretsPanel } from './SecretsPanel';
import { InterfacesPanel } from './InterfacesPanel';
import { useSession } from '../../app/use-session';

/** One project: its program ID, every setting, its secrets, and its deletion. */
export function ProjectPage() {
  const { t } = useTranslation();
  const { projectId = '' } = useParams();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const project = useQuery(projectQuery(projectId));
  const platformAdmin = useSession()?.role === 'platform_admin';
  const remove = useMutation({
    mutationFn: () => deleteProject(projectId),
    onSuccess: () => {
      queries.removeQueries({ queryKey: projectKeys.one(projectId) });
      void queries.invalidateQueries({ queryKey: projectKeys.all });
      void message.success(t('projects.deleted'));
      void navigate('/projects');
    },
    onError: notifyError,
  });

  if (project.error) return <ErrorAlert error={project.error} />;
  if (!project.data) return <PageLoading />;
  const { name, program_id: programId, status } = project.data;

  const confirmDelete = () =>
    confirmDanger({
      title: t('projects.deleteConfirmTitle', { name }),
      content: t('projects.deleteConfirmText'),
      okText: t('common.delete'),
      onOk: () => remove.mutateAsync(),
    });

  return (
    <>
      <div className="page-title">
        <Space orientation="vertical" size={0}>
          <Typography.Title level={1}>
            {name} <Tag color={status === 'active' ? 'green' : 'default'}>{t(`projects.statuses.${status}`)}</Tag>
          </Typography.Title>
          <span>
            {t('projects.programId')}:{' '}
            <Typography.Text copyable code data-testid="program-id">
              {programId}
            </Typography.Text>
          </span>
        </Space>
        <Space wrap>
          <Button type="primary" icon={<CreditCardOutlined />} onClick={() => void navigate(`/projects/${projectId}/cards`)}>
            {t('projects.openCards')}
          </Button>
          <Button danger icon={<DeleteOutlined />} onClick={confirmDelete}>
            {t('projects.deleteProject')}
          </Button>
        </Space>
      </div>
      <Tabs
        items={[
          {
            key: 'settings',
            label: t('projects.tabs.settings'),
            children: <ProjectSettingsForm key={project.data.updated_at} project={project.data} />,
          },
          { key: 'secrets', label: t('projects.tabs.secrets'), children: <SecretsPanel project={project.data} /> },
          {
            key: 'interfaces',
            label: t('platform.interfaces.tab'),
            children: <InterfacesPanel projectId={projectId} editable={platformAdmin} />,
          },
        ]}
      />
    </>
  );
}
