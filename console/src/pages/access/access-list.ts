import { useMutation, useQuery, useQueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNotifyError } from '../../components/ErrorAlert';

/**
 * One list of a project's access data (variables, sites, blacklist): the query, an add that refreshes
 * it and says so, and a removal; every tab of the page is this plus its columns and fields.
 */
export function useAccessList<List extends { items: unknown[] }, Key extends QueryKey, Draft>(
  query: UseQueryOptions<List, Error, List, Key> & { queryKey: Key },
  calls: {
    add: (draft: Draft) => Promise<unknown>;
    remove: (item: List['items'][number]) => Promise<unknown>;
  },
) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const refresh = () => void queries.invalidateQueries({ queryKey: query.queryKey });
  const list = useQuery(query);
  const add = useMutation({
    mutationFn: calls.add,
    onSuccess: () => {
      refresh();
      void message.success(t('common.saved'));
    },
  });
  const remove = useMutation({ mutationFn: calls.remove, onSuccess: refresh, onError: notifyError });
  return { list, add, remove, refresh };
}
