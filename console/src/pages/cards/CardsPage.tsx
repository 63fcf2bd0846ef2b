import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Dropdown, Form, Input, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Card, CardStatus } from '../../api/client';
import { FilterButtons } from '../../components/FilterButtons';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { useListPage } from '../../components/list-page';
import { CardAllowance, CardStatusTag } from './card-labels';
import {
  FILTER_NAMES,
  cardListQuery,
  downloadCardsCsv,
  type CardExportFormat,
  type CardFilters,
  type CardSort,
} from './card-queries';
import { SORT_DIRECTIONS, columnOrder, readSort, sortOf, type SortableColumn } from './card-sort';
import { GenerateCardsModal } from './GenerateCardsModal';
import { ImportCardsModal } from './ImportCardsModal';
import { BulkActions } from './BulkActions';
import { CardFilterFields } from './CardFilterFields';
import { cardTypesQuery } from '../card-types/card-type-queries';

const EXPORT_FORMATS: readonly CardExportFormat[] = ['excel', 'txt', 'data'];

/** The cards of a project: filters, order and paging in the address (so a list can be shared), generation, export, import. */
export function CardsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { message } = App.useApp();
  const notifyError = useNotifyError();
  const { projectId = '' } = useParams();
  const cards = useListPage<CardFilters & { sort?: string }>([...FILTER_NAMES, 'sort']);
  // The order is not a filter: the export and bulk actions get the filters only.
  const { sort: sortParam, ...filters } = cards.filters;
  const sort = readSort(sortParam);
  const list = useQuery(cardListQuery(projectId, filters, cards.page, cards.pageSize, sort));
  const types = useQuery(cardTypesQuery(projectId));
  const typeName = (id: number) => types.data?.items.find((type) => type.id === id)?.name ?? `#${id}`;
  const [generating, setGenerating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [form] = Form.useForm<CardFilters>();
  const exportCsv = useMutation({
    mutationFn: (format: CardExportFormat) => downloadCardsCsv(projectId, filters, format),
    onSuccess: () => void message.success(t('cards.exported')),
    onError: notifyError,
  });

  const show = (next: CardFilters, nextPage = 1, nextSize = cards.pageSize, nextSort: CardSort | undefined = sort) => {
    setSelected([]); // a selection belongs to the list it was made in
    cards.show({ ...next, sort: nextSort }, nextPage, nextSize);
  };
  const sortable = (column: SortableColumn) => ({
    key: column,
    sorter: true,
    sortOrder: columnOrder(sort, column),
    sortDirections: SORT_DIRECTIONS,
  });

  const columns = [
    {
      title: t('cards.code'),
      dataIndex: 'code',
      ...sortable('code'),
      render: (code: string, card: Card) => (
        <Typography.Text copyable={{ text: code }}>
          <Link to={`/projects/${projectId}/cards/${card.id}`}>{code}</Link>
        </Typography.Text>
      ),
    },
    { title: t('cards.status'), dataIndex: 'status', render: (status: CardStatus) => <CardStatusTag status={status} /> },
    {
      title: t('cardTypes.column'),
      dataIndex: 'card_type_id',
      render: (id: number | null) => (id === null ? '—' : typeName(id)),
    },
    { title: t('cards.duration'), key: 'allowance', render: (_: unknown, card: Card) => <CardAllowance card={card} /> },
    {
      title: t('cards.devices'),
      key: 'devices',
      render: (_: unknown, card: Card) => `${card.devices.length} / ${card.device_limit}`,
    },
    {
      title: t('cards.activated'),
      dataIndex: 'activated_at',
      responsive: ['md' as const],
      render: (at: string | null) => format.dateTime(at),
    },
    {
      title: t('cards.expires'),
      dataIndex: 'expires_at',
      ...sortable('expires_at'),
      responsive: ['md' as const],
      render: (at: string | null) => format.dateTime(at, '—'),
    },
    {
      title: t('cards.lastLogin'),
      dataIndex: 'last_login_at',
      ...sortable('last_login_at'),
      responsive: ['lg' as const],
      render: (at: string | null) => format.dateTime(at),
    },
    {
      title: t('cardsManage.created'),
      dataIndex: 'created_at',
      ...sortable('created_at'),
      responsive: ['lg' as const],
      render: (at: string) => format.dateTime(at),
    },
    { title: t('cards.note'), dataIndex: 'note', responsive: ['xl' as const], ellipsis: true },
  ];

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t('cards.title')}</Typography.Title>
        <Space wrap>
          <Dropdown
            trigger={['click']}
            menu={{
              items: EXPORT_FORMATS.map((format) => ({ key: format, label: t(`cards.exportFormats.${format}`) })),
              onClick: ({ key }) => exportCsv.mutate(key as CardExportFormat),
            }}
          >
            <Button icon={<DownloadOutlined />} loading={exportCsv.isPending}>
              {t('cards.exportAs')}
            </Button>
          </Dropdown>
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
            {t('cardsManage.import.open')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setGenerating(true)}>
            {t('cards.generate')}
          </Button>
        </Space>
      </div>
      <Form
        form={form}
        name="card-filters"
        layout="inline"
        className="filters"
        initialValues={filters}
        onFinish={(values) => show(values)}
        key={cards.key}
      >
        <CardFilterFields />
        <Form.Item name="machine">
          <Input aria-label={t('cards.filters.device')} placeholder={t('cards.filters.device')} allowClear maxLength={128} />
        </Form.Item>
        <FilterButtons onReset={() => show({})} />
      </Form>
      {list.error && <ErrorAlert error={list.error} />}
      <BulkActions
        projectId={projectId}
        selectedIds={selected}
        filters={filters}
        matching={list.data?.total ?? 0}
        onDone={() => setSelected([])}
      />
      <Table<Card>
        rowKey="id"
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(Number)),
          preserveSelectedRowKeys: false,
        }}
        loading={list.isFetching}
        dataSource={list.data?.items}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('cards.empty') }}
        onChange={(_paging, _filters, sorter, { action }) => {
          if (action === 'sort' && !Array.isArray(sorter))
            show(filters, 1, cards.pageSize, sortOf(sorter.columnKey as SortableColumn, sorter.order));
        }}
        pagination={{
          ...cards.pagination(list.data?.total, [20, 50, 100]),
          // Through `show`, so that another page drops the selection too.
          onChange: (nextPage, nextSize) => show(filters, nextSize === cards.pageSize ? nextPage : 1, nextSize),
        }}
      />
      {generating && (
        <GenerateCardsModal
          projectId={projectId}
          onClose={() => setGenerating(false)}
          onShowBatch={(batchId) => {
            setGenerating(false);
            show({ batch_id: batchId });
          }}
        />
      )}
      {importing && (
        <ImportCardsModal
          projectId={projectId}
          onClose={() => setImporting(false)}
          onShowBatch={(batchId) => {
            setImporting(false);
            show({ batch_id: batchId });
          }}
        />
      )}
    </>
  );
}
