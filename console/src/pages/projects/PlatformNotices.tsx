import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { platformNoticesQuery } from './project-queries';

/** Dismissed in this browser (a preference, never a secret): the ids of the announcements closed. */
const DISMISSED_KEY = 'cardkey.console.dismissedAnnouncements';
const NEWEST = 3;

function readDismissed(): number[] {
  try {
    const ids: unknown = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : [];
  } catch {
    return [];
  }
}

/**
 * The newest platform announcements an author has not dismissed, where they land after signing in.
 * The service answers an author the shown ones only; the filter on `enabled` keeps it so for any role.
 */
export function PlatformNotices() {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(readDismissed);
  const list = useQuery(platformNoticesQuery());
  const dismiss = (id: number) => {
    // Only ids still listed are kept, so the list cannot grow without end.
    const next = [...dismissed, id].filter((kept) => kept === id || list.data?.items.some((item) => item.id === kept));
    localStorage.setItem(DISMISSED_KEY, JSON.stringify(next));
    setDismissed(next);
  };
  if (list.error) return <ErrorAlert error={list.error} />;
  const shown = (list.data?.items ?? []).filter((item) => item.enabled && !dismissed.includes(item.id)).slice(0, NEWEST);
  if (shown.length === 0) return null;
  return (
    <section className="platform-notices" aria-label={t('platform.notices.label')}>
      {shown.map((item) => (
        <Alert
          key={item.id}
          type="info"
          showIcon
          title={item.title}
          description={<span className="notice-text">{item.content}</span>}
          closable={{ 'aria-label': `${t('platform.notices.dismiss')} ${item.title}` }}
          onClose={() => dismiss(item.id)}
        />
      ))}
    </section>
  );
}
