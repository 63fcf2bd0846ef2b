import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, InputNumber, Modal, Radio, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotifyError } from '../../components/ErrorAlert';
import { bulkCards, cardKeys, type BulkCards, type CardFilters } from './card-queries';

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
 * shows, sent to the bulk route, so the count confirmed is the set changed). It starts on the
 * selection with no action chosen, so nothing is two clicks from changing the whole stock; acting on
 * everything the filters match asks for the count to be typed.
 */
export function BulkActions({ projectId, selectedIds, filters, matching, onDone }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const [scope, setScope] = useState<'selected' | 'matching'>('selected');
  const [action, setAction] = useState<BulkAction | null>(null);
  const [days, setDays] = useState<number | null>(30);
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const filtered = Object.keys(filters).length > 0;
  const count = scope === 'selected' ? selectedIds.length : matching;
  // Everything the filters match may be the whole stock: the count is typed, not just clicked through.
  const mustType = scope === 'matching';

  const run = useMutation({
    mutationFn: (chosen: BulkAction) => {
      const target = scope === 'selected' ? { ids: selectedIds } : { filter: filtered ? filters : { all: true } };
      const extra =
        chosen === 'extend' ? { extend_seconds: (days ?? 1) * DAY } : chosen === 'set_note' ? { note: note.trim() || null } : {};
      return bulkCards(projectId, { action: chosen, ...target, ...extra } as BulkCards);
    },
    onSuccess: (result) => {
      void queries.invalidateQueries({ queryKey: cardKeys.ofProject(projectId) });
      void message.success(t('bulk.result', { matched: result.matched, changed: result.changed }));
      setConfirming(false);
      setAction(null);
      onDone();
    },
    onError: (error) => {
      setConfirming(false);
      notifyError(error);
    },
  });

  const open = () => {
    setTyped('');
    setConfirming(true);
  };
  const confirmed = !mustType || typed.trim() === String(count);
  const actionName = action ? t(`bulk.actions.${action}`) : '';

  return (
    <Card size="small" title={t('bulk.title')} className="bulk-actions">
      <Space wrap align="center">
        <Radio.Group
          value={scope}
          onChange={(event) => setScope(event.target.value)}
          options={[
            { value: 'selected', label: t('bulk.selected', { count: selectedIds.length }) },
            {
              value: 'matching',
              label: filtered ? t('bulk.matching', { count: matching }) : t('bulk.everything', { count: matching }),
            },
          ]}
        />
        <Select<BulkAction>
          aria-label={t('bulk.action')}
          placeholder={t('bulk.choose')}
          value={action}
          onChange={setAction}
          style={{ width: 190 }}
          options={ACTIONS.map((value) => ({ value, label: t(`bulk.actions.${value}`) }))}
        />
        {action === 'extend' && (
          <InputNumber
            aria-label={t('bulk.days')}
            addonAfter={t('bulk.days')}
            min={1}
            max={36_500}
            precision={0}
            value={days}
            onChange={setDays}
          />
        )}
        {action === 'set_note' && (
          <Input
            aria-label={t('bulk.note')}
            placeholder={t('bulk.note')}
            maxLength={200}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            style={{ width: 220 }}
          />
        )}
        <Button
          type="primary"
          danger={action === 'ban' || action === 'delete'}
          disabled={count === 0 || action === null}
          loading={run.isPending}
          onClick={open}
        >
          {t('bulk.apply')}
        </Button>
      </Space>
      {count === 0 && (
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          {scope === 'selected' ? t('bulk.none') : t('bulk.noneMatching')}
        </Typography.Paragraph>
      )}
      {confirming && action && (
        <Modal
          open
          title={t('bulk.confirmTitle', { action: actionName, count })}
          okText={actionName}
          okButtonProps={{ danger: true, disabled: !confirmed }}
          cancelText={t('common.cancel')}
          confirmLoading={run.isPending}
          onOk={() => run.mutate(action)}
          onCancel={() => setConfirming(false)}
        >
          <div className="bulk-count" data-testid="bulk-count">
            <span className="bulk-count-number">{count}</span> {t('bulk.cards', { count })}
          </div>
          <Typography.Paragraph strong>
            {scope === 'selected' ? t('bulk.scopeSelected') : filtered ? t('bulk.scopeMatching') : t('bulk.scopeEverything')}
          </Typography.Paragraph>
          <Typography.Paragraph>{t('bulk.confirmText')}</Typography.Paragraph>
          {mustType && (
            <Input
              aria-label={t('bulk.typeCount', { count })}
              placeholder={String(count)}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              inputMode="numeric"
              autoFocus
              addonBefore={t('bulk.typeCount', { count })}
            />
          )}
        </Modal>
      )}
    </Card>
  );
}
