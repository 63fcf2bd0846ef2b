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

/** Details as a reader takes them: a list item by item, an object as `name: value` pairs, never raw JSON. */
function readableDetails(details: unknown): string[] {
  if (details === undefined || details === null) return [];
  if (Array.isArray(details))
    return details.map((item) => (typeof item === 'object' && item !== null ? readableDetails(item).join(', ') : String(item)));
  if (typeof details === 'object')
    return Object.entries(details).map(
      ([name, value]) =>
        `${name}: ${typeof value === 'object' && value !== null ? readableDetails(value).join(', ') : String(value)}`,
    );
  return [String(details)];
}

/** The catalog code, the request id (copyable, to quote to support) and the details of a refusal. */
function FailureFacts({ error, ownText }: { error: ApiError; ownText: boolean }) {
  const { t } = useTranslation();
  const details = ownText ? [] : readableDetails(error.details);
  return (
    <div className="failure-facts">
      {!ownText && saysMore(error) && (
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

/**
 * Texts a page gives for codes it can say better in its own context (a refused sign-in is a wrong
 * password, not "authentication is required"): they replace the catalog text and the service's words.
 */
export type OwnTexts = Partial<Record<number, string>>;

/** The console's text for the catalog code in the chosen language; the service's message for a code it does not know. */
function headline(error: ApiError, t: TFunction, own?: OwnTexts): string {
  if (error.unreachable) return `${t('errors.unreachable')} (${error.message})`;
  if (error.code !== undefined && own?.[error.code]) return own[error.code]!;
  return error.code === undefined ? error.message : t(`catalog.${error.code}`, { defaultValue: error.message });
}

/** A failed query or form submission, in place: the catalog text (or the page's own), its code and the request id. */
export function ErrorAlert({ error, own }: { error: unknown; own?: OwnTexts }) {
  const { t } = useTranslation();
  const failure = asApiError(error);
  const ownText = failure.code !== undefined && own?.[failure.code] !== undefined;
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={headline(failure, t, own)}
      description={<FailureFacts error={failure} ownText={ownText} />}
    />
  );
}

/** For actions without a form of their own (ban, unbind, rotate, delete): the same facts in a notification. */
export function useNotifyError(): (error: unknown) => void {
  const { notification } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (error: unknown) => {
      const failure = asApiError(error);
      notification.error({
        title: headline(failure, t),
        description: <FailureFacts error={failure} ownText={false} />,
        duration: 0,
        role: 'alert',
      });
    },
    [notification, t],
  );
}
