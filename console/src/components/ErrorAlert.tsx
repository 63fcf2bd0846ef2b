import { Alert, App, Typography } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError } from '../api/errors';
import { catalogEn } from '../i18n/catalog';

function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, undefined, error instanceof Error ? error.message : String(error), undefined);
}

/** The service said more than its catalog text for the code (which limit, which field): worth showing as said. */
function saysMore(error: ApiError): boolean {
  return error.code !== undefined && error.code in catalogEn && error.message !== catalogEn[error.code];
}

/** The catalog code, the request id (copyable, to quote to support) and the details of a refusal. */
function FailureFacts({ error }: { error: ApiError }) {
  const { t } = useTranslation();
  const details = Array.isArray(error.details) ? error.details.map(String) : error.details !== undefined ? [JSON.stringify(error.details)] : [];
  return (
    <div className="failure-facts">
      {saysMore(error) && (
        <div>
          {t('errors.serviceSays')}: {error.message}
        </div>
      )}
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

/** The console's text for the catalog code in the chosen language; the service's message for a code it does not know. */
function headline(error: ApiError, t: TFunction): string {
  if (error.unreachable) return `${t('errors.unreachable')} (${error.message})`;
  return error.code === undefined ? error.message : t(`catalog.${error.code}`, { defaultValue: error.message });
}

/** A failed query or form submission, in place: the catalog text, its code and the request id. */
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
