import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Input, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Project } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { useListPage } from '../../components/list-page';
import { ShownOnce } from '../../components/ShownOnce';
import { useSession } from '../../app/use-session';
import { CreateProjectModal } from './CreateProjectModal';
import { PlatformNotices } from './PlatformNotices';
import { projectListQuery } from './project-queries';

const PAGE_SIZE = 20;

/** The projects the admin may manage, searchable, paged by the service; and the way to a new one. */
export function ProjectsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const navigate = useNavigate();
  const projects = useListPage<{ q?: string }>(['q'], PAGE_SIZE);
  const { q = '' } = projects.filters;
  const list = useQuery(projectListQuery(projects.page, projects.pageSize, q));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Project | null>(null);
  const author = useSession()?.role === 'author';

  const columns = [
    {
      title: t('projects.name'),
      dataIndex: 'name',
      render: (name: string, p: Project) => <Link to={`/projects/${p.id}/overview`}>{name}</Link>,
    },
    {
      title: t('projects.programId'),
      dataIndex: 'program_id',
      render: (id: string) => <Typography.Text copyable>{id}</Typography.Text>,
    },
    {
      title: t('projects.status'),
      dataIndex: 'status',
      render: (status: Project['status']) => (
        <Tag color={status === 'active' ? 'green' : 'default'}>{t(`projects.statuses.${status}`)}</Tag>
      ),
    },
    {
      title: t('projects.created'),
      dataIndex: 'created_at',
      responsive: ['md' as const],
      render: (at: string) => format.dateTime(at),
    },
  ];

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t('projects.title')}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('projects.new')}
        </Button>
      </div>
      {author && <PlatformNotices />}
      <Input.Search
        className="filters"
        aria-label={t('projects.searchPlaceholder')}
        placeholder={t('projects.searchPlaceholder')}
        defaultValue={q}
        allowClear
        enterButton={t('common.search')}
        onSearch={(value) => projects.show({ q: value })}
        style={{ maxWidth: 420 }}
      />
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Project>
        rowKey="id"
        loading={list.isPending}
        dataSource={list.data?.items}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('projects.empty') }}
        pagination={projects.pagination(list.data?.total)}
      />
      {creating && (
        <CreateProjectModal
          onClose={() => setCreating(false)}
          onCreated={(project) => {
            setCreating(false);
            setCreated(project);
          }}
        />
      )}
      {created && (
        <ShownOnce
          title={t('projects.createdTitle', { name: created.name })}
          values={[
            { label: t('projects.programId'), value: created.program_id },
            { label: t('secrets.api_secret'), value: created.api_secret },
            { label: t('secrets.legacy_secret'), value: created.legacy_secret },
            { label: t('secrets.transport_key'), value: created.transport_key },
          ]}
          // A new project has nothing to overview yet: its settings come first.
          onDone={() => void navigate(`/projects/${created.id}/settings`)}
        />
      )}
    </>
  );
}
