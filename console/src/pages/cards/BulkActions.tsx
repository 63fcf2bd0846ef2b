import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, InputNumber, Radio, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useConfirmDanger } from '../../components/confirm';
import { useNotifyError } from '../../components/ErrorAlert';
import { cardKeys, type CardFilters } from './card-queries';

type BulkAction = 'ban' | 'unban' | 'delete' | 'extend' | 'set_note';
const ACTIONS: BulkAction[] = ['ban', 'unban', 'delete', 'extend', 'set_note'];
const DAY = 86_400;

interface Props {
  projectId: string;
  selectedIds: number[];
  filters: CardFilters;
  /** Cards the current filters match (the list's total). */
  matching: number;
  onDone: () => void;
}

/**
 * One action on the selected cards, or on every card the filters match (the same filter the list
 * shows, sent to the bulk route, so the count confirmed is the set changed): confirmed first.
 */
export function BulkActions({ projectId, selectedIds, filters, matching, onDone }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const [scope, setScope] = useState<'selected' | 'matching'>('selected');
  const [action, setAction] = useState<BulkAction>('ban');
  const [days, setDays] = useState<number | null>(30);
  const [note, setNote] = useState('');
  const filtered = Object.keys(filters).length > 0;
  const useSelection = scope === 'selected' && selectedIds.length > 0;
  const count = useSelection ? selectedIds.length : matching;

  const run = useMutation({
    mutationFn: () => {
      const target = useSelection ? { ids: selectedIds } : { filter: filtered ? filters : { all: true } };
      const extra = action === 'extend' ? { extend_seconds: (days ?? 1) * DAY } : action === 'set_note' ? { note: note.trim() || null } : {};
      return unwrap(api.POST('/admin/v1/projects/{id}/cards/bulk', { params: { path: { id: projectId } }, body: { action, ...target, ...extra } as Schemas['BulkCardsDto'] }));
    },
    onSuccess: (result) => {
      void queries.invalidateQueries({ queryKey: cardKeys.ofProject(projectId) });
      void message.success(t('bulk.result', { matched: result.matched, changed: result.changed }));
      onDone();
    },
    onError: notifyError,
  });

  const apply = () =>
    confirmDanger({
      title: t('bulk.confirmTitle', { action: t(`bulk.actions.${action}`), count }),
      content: t('bulk.confirmText'),
      okText: t(`bulk.actions.${action}`),
      onOk: () => run.mutateAsync(),
    });

  return (
    <Card size="small" title={t('bulk.title')} className="bulk-actions">
      <Space wrap align="center">
        <Radio.Group value={useSelection ? 'selected' : 'matching'} onChange={(event) => setScope(event.target.value)}
          options={[
            { value: 'selected', label: t('bulk.selected', { count: selectedIds.length }), disabled: selectedIds.length === 0 },
            { value: 'matching', label: filtered ? t('bulk.matching', { count: matching }) : t('bulk.everything', { count: matching }) },
          ]} />
        <Select aria-label={t('bulk.action')} value={action} onChange={setAction} style={{ width: 170 }} options={ACTIONS.map((value) => ({ value, label: t(`bulk.actions.${value}`) }))} />
        {action === 'extend' && <InputNumber aria-label={t('bulk.days')} addonAfter={t('bulk.days')} min={1} max={36_500} precision={0} value={days} onChange={setDays} />}
        {action === 'set_note' && <Input aria-label={t('bulk.note')} placeholder={t('bulk.note')} maxLength={200} value={note} onChange={(event) => setNote(event.target.value)} style={{ width: 220 }} />}
        <Button type="primary" danger={action === 'ban' || action === 'delete'} disabled={count === 0} loading={run.isPending} onClick={apply}>{t('bulk.apply')}</Button>
      </Space>
      {count === 0 && <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>{t('bulk.none')}</Typography.Paragraph>}
    </Card>
  );
}
