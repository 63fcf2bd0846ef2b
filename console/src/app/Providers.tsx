import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from './query-client';
import { useReducedMotion } from './use-reduced-motion';

/**
 * antd in the chosen language (its own texts: pagination, confirmations, empty tables), and the query cache.
 * antd's animations are off where the system asks for reduced motion: dialogs then open at their full
 * size at once (the browser tests ask for it, so a click never lands on a dialog still zooming in).
 */
export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const motion = !useReducedMotion();
  return (
    // autoInsertSpace off: antd spaces out two-character Chinese labels ("登 录"), which screen readers then spell.
    <ConfigProvider
      locale={i18n.language === 'zh-CN' ? zhCN : enUS}
      theme={{ token: { colorPrimary: '#1f6feb', motion } }}
      button={{ autoInsertSpace: false }}
    >
      <AntApp>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
