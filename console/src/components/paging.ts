import type { TablePaginationConfig } from 'antd';
import type { TFunction } from 'i18next';

/** The paging of a list the service pages (`page`, `page_size`, `total`), with the total in words. */
export function serverPaging(
  t: TFunction,
  {
    page,
    pageSize,
    total,
    sizes,
    onChange,
  }: { page: number; pageSize: number; total?: number; sizes?: number[]; onChange: (page: number, size: number) => void },
): TablePaginationConfig {
  return {
    current: page,
    pageSize,
    total,
    showSizeChanger: sizes !== undefined,
    pageSizeOptions: sizes,
    showTotal: (count) => t('common.total', { count }),
    onChange,
  };
}
