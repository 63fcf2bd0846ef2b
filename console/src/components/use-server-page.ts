import type { TablePaginationConfig } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverPaging } from './paging';

/**
 * The page of a list the service pages: the `page`/`page_size` query to send, the table's paging for
 * the answered total, and `first()` for when a filter changes (page 1 of the new list). A new page
 * size starts again at page 1: the old page number would point elsewhere in the list.
 */
export function useServerPage(initialSize = 20) {
  const { t } = useTranslation();
  const [state, setState] = useState({ page: 1, pageSize: initialSize });
  return {
    query: { page: state.page, page_size: state.pageSize },
    first: () => setState((now) => ({ ...now, page: 1 })),
    pagination: (total: number | undefined): TablePaginationConfig =>
      serverPaging(t, {
        ...state,
        total,
        onChange: (page, pageSize) => setState((now) => ({ page: pageSize === now.pageSize ? page : 1, pageSize })),
      }),
  };
}
