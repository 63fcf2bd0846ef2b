import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Card, CardStatus } from '../../api/client';
import { useFormat } from '../../components/format';

const STATUS_COLORS: Record<CardStatus, string> = {
  unused: 'blue',
  active: 'green',
  banned: 'red',
  consumed: 'default',
  stock: 'purple',
};

export function CardStatusTag({ status }: { status: CardStatus }) {
  const { t } = useTranslation();
  return <Tag color={STATUS_COLORS[status]}>{t(`cards.statuses.${status}`)}</Tag>;
}

/** What a card is worth: its validity (time card) or the logins left (count card). */
export function CardAllowance({ card }: { card: Card }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (card.kind === 'count') return <>{`${t('cards.kinds.count')} · ${card.uses_left ?? 0}`}</>;
  return <>{format.duration(card.duration_seconds)}</>;
}
