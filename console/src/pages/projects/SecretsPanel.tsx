import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, List, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../api/client';
import { useConfirmDanger } from '../../components/confirm';
import { useNotifyError } from '../../components/ErrorAlert';
import { ShownOnce } from '../../components/ShownOnce';
import { projectKeys, rotateSecret, SECRET_NAMES, type SecretName } from './project-queries';

/** The project's secrets, masked; rotating one (after a confirmation) shows the new value once. */
export function SecretsPanel({ project }: { project: Project }) {
  const { t } = useTranslation();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const [rotated, setRotated] = useState<{ name: SecretName; value: string } | null>(null);
  const rotate = useMutation({
    mutationFn: (name: SecretName) => rotateSecret(project.id, name),
    onSuccess: (answer, name) => {
      setRotated({ name, value: answer.value });
      void queries.invalidateQueries({ queryKey: projectKeys.one(project.id) });
    },
    onError: notifyError,
  });

  const confirmRotation = (name: SecretName) =>
    confirmDanger({
      title: t('secrets.rotateTitle', { name: t(`secrets.${name}`) }),
      content: t('secrets.rotateText'),
      okText: t('secrets.rotate'),
      onOk: () => rotate.mutateAsync(name),
    });

  return (
    <>
      <Typography.Paragraph type="secondary">{t('secrets.intro')}</Typography.Paragraph>
      <List
        bordered
        dataSource={[...SECRET_NAMES]}
        renderItem={(name) => (
          <List.Item
            actions={[
              <Button
                key="rotate"
                danger
                onClick={() => confirmRotation(name)}
                aria-label={`${t('secrets.rotate')}: ${t(`secrets.${name}`)}`}
              >
                {t('secrets.rotate')}
              </Button>,
            ]}
          >
            <List.Item.Meta title={t(`secrets.${name}`)} description={<Typography.Text code>{project[name]}</Typography.Text>} />
          </List.Item>
        )}
      />
      {rotated && (
        <ShownOnce
          title={t('secrets.rotated', { name: t(`secrets.${rotated.name}`) })}
          values={[{ label: t(`secrets.${rotated.name}`), value: rotated.value }]}
          onDone={() => setRotated(null)}
        />
      )}
    </>
  );
}
