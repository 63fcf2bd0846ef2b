import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, InputNumber, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { InterfaceLabel } from '../../components/InterfaceLabel';
import { interfacesQuery, projectKeys, setInterface, type ProjectInterface } from './project-queries';

type Draft = { authorized: boolean; daily_quota: number | null };

/** A project's interface authorizations and daily quotas: editable by a platform admin, read-only for its author. */
export function InterfacesPanel({ projectId, editable }: { projectId: string; editable: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const key = projectKeys.interfaces(projectId);
  const list = useQuery(interfacesQuery(projectId));
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const save = useMutation({
    mutationFn: ({ name, draft }: { name: ProjectInterface['name']; draft: Draft }) => setInterface(projectId, name, draft),
    onSuccess: (_, { name }) => {
      setDrafts(({ [name]: _saved, ...rest }) => rest);
      void queries.invalidateQueries({ queryKey: key });
      void message.success(t('common.saved'));
    },
    onError: notifyError,
  });
  const texts = 'platform.interfaces';
  const current = (row: ProjectInterface): Draft =>
    drafts[row.name] ?? { authorized: row.authorized, daily_quota: row.daily_quota };
  const edit = (row: ProjectInterface, change: Partial<Draft>) =>
    setDrafts((all) => ({ ...all, [row.name]: { ...current(row), ...change } }));

  return (
    <>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
      {list.error && <ErrorAlert error={list.error} />}
      <Table<ProjectInterface>
        rowKey="name"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.items}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            title: t(`${texts}.name`),
            dataIndex: 'name',
            render: (name: string, row) => (
              <InterfaceLabel name={name}>
                {!row.platform_enabled && <Tag color="orange">{t(`${texts}.platformOff`)}</Tag>}
              </InterfaceLabel>
            ),
          },
          {
            title: t(`${texts}.authorized`),
            key: 'authorized',
            render: (_, row) => (
              <Switch
                checked={current(row).authorized}
                disabled={!editable}
                aria-label={`${row.name} ${t(`${texts}.authorized`)}`}
                onChange={(authorized) => edit(row, { authorized })}
              />
            ),
          },
          {
            title: t(`${texts}.quota`),
            key: 'quota',
            render: (_, row) =>
              editable ? (
                <InputNumber
                  min={0}
                  max={2_147_483_647}
                  precision={0}
                  value={current(row).daily_quota}
                  placeholder={t(`${texts}.unlimited`)}
                  aria-label={`${row.name} ${t(`${texts}.quota`)}`}
                  onChange={(value) => edit(row, { daily_quota: value ?? null })}
                />
              ) : (
                (row.daily_quota ?? t(`${texts}.unlimited`))
              ),
          },
          ...(editable
            ? [
                {
                  title: '',
                  key: 'save',
                  render: (_: unknown, row: ProjectInterface) => (
                    <Button
                      size="small"
                      type="primary"
                      disabled={!drafts[row.name]}
                      loading={save.isPending && save.variables?.name === row.name}
                      onClick={() => save.mutate({ name: row.name, draft: current(row) })}
                      aria-label={`${t(`${texts}.save`)} ${row.name}`}
                    >
                      {t(`${texts}.save`)}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
    </>
  );
}
