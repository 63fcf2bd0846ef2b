import { Alert, App, Typography } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError } from '../api/errors';

function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, undefined, error instanceof Error ? error.message : String(error), undefined);
}

/** The catalog code, the request id (copyable, to quote to support) and the details of a refusal. */
function FailureFacts({ error }: { error: ApiError }) {
  const { t } = useTranslation();
  const details = Array.isArray(error.details) ? error.details.map(String) : error.details !== undefined ? [JSON.stringify(error.details)] : [];
  return (
    <div className="failure-facts">
      {error.code !== undefined && (
        <div>
          {t('errors.code')}: <Typography.Text code>{error.code}</Typography.Text>
        </div>
      )}
      {error.requestId && (
        <div>
          {t('errors.requestId')}:{' '}
          <Typography.Text code copyable data-testid="request-id">
            {error.requestId}
          </Typography.Text>
        </div>
      )}
      {details.length > 0 && (
        <div>
          {t('errors.details')}: {details.join('; ')}
        </div>
      )}
    </div>
  );
}

function headline(error: ApiError, t: TFunction): string {
  return error.unreachable ? `${t('errors.unreachable')} (${error.message})` : error.message;
}

/** A failed query or form submission, in place: the service's message, its code and the request id. */
export function ErrorAlert({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const failure = asApiError(error);
  return <Alert type="error" showIcon role="alert" title={headline(failure, t)} description={<FailureFacts error={failure} />} />;
}

/** For actions without a form of their own (ban, unbind, rotate, delete): the same facts in a notification. */
export function useNotifyError(): (error: unknown) => void {
  const { notification } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (error: unknown) => {
      const failure = asApiError(error);
      notification.error({ title: headline(failure, t), description: <FailureFacts error={failure} />, duration: 0, role: 'alert' });
    },
    [notification, t],
  );
}
