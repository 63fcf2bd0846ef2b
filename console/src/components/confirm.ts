import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export interface DangerousAction {
  title: string;
  content: string;
  /** The confirming button's label: the action itself ("Ban", "Delete"), never a bare "OK". */
  okText: string;
  /** Runs on confirmation; its failure is shown by the caller (the dialog just closes). */
  onOk: () => Promise<unknown>;
}

/** Every destructive action asks first: one dialog, its button red and named after the action. */
export function useConfirmDanger(): (action: DangerousAction) => void {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    ({ title, content, okText, onOk }: DangerousAction) => {
      modal.confirm({
        title,
        content,
        okText,
        okButtonProps: { danger: true },
        cancelText: t('common.cancel'),
        onOk: () => onOk().catch(() => undefined),
      });
    },
    [modal, t],
  );
}
