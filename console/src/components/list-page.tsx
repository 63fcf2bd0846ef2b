import { Form } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FilterButtons } from './FilterButtons';
import { serverPaging } from './paging';

/**
 * A list page: its filters and paging live in the address (so a filtered list can be bookmarked and
 * shared). Answers the filters named in `names` as read from it, the page and its size, `query` (the
 * filters with `page`/`page_size`, as the admin API names them), `show` to change them (empty filters
 * dropped, values trimmed, back to page 1 unless told otherwise), and the table's `pagination` for an
 * answered total. A table inside another page keeps its page in component state instead
 * (`useServerPage`): two lists on one address would share its `page`.
 */
export function useListPage<Filters extends object>(names: readonly string[], defaultPageSize = 20) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filters: Record<string, string> = {};
  for (const name of names) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  const page = Number(params.get('page') ?? 1);
  const pageSize = Number(params.get('page_size') ?? defaultPageSize);
  const show = (next: Filters, nextPage = 1, nextSize = pageSize) => {
    const entries = Object.entries(next).filter(([, value]) => typeof value === 'string' && value.trim() !== '');
    setParams({
      ...Object.fromEntries(entries.map(([name, value]) => [name, String(value).trim()])),
      page: String(nextPage),
      page_size: String(nextSize),
    });
  };
  return {
    filters: filters as Filters,
    page,
    pageSize,
    query: { ...(filters as Filters), page, page_size: pageSize },
    show,
    /** The address's query: a new one re-mounts the filter form with the filters it names. */
    key: params.toString(),
    pagination: (total: number | undefined, sizes?: number[]) =>
      serverPaging(t, {
        page,
        pageSize,
        total,
        sizes,
        onChange: (next, size) => show(filters as Filters, size === pageSize ? next : 1, size),
      }),
  };
}

export type ListPage<Filters extends object> = ReturnType<typeof useListPage<Filters>>;

/**
 * A list page's filter form: its fields, then Search (shows the list so filtered) and Reset (without
 * filters). The form is made again for each address, so that it shows the filters the address names
 * (a kept form would keep what was typed over them). Reset also empties the fields: when the address
 * shows no filter already, it does not change, and nothing else would clear what was typed.
 */
export function ListFilters<Filters extends object>(props: { list: ListPage<Filters>; name: string; children: ReactNode }) {
  return <FiltersForm<Filters> key={props.list.key} {...props} />;
}

function FiltersForm<Filters extends object>({
  list,
  name,
  children,
}: {
  list: ListPage<Filters>;
  name: string;
  children: ReactNode;
}) {
  const [form] = Form.useForm<Filters>();
  return (
    <Form<Filters>
      form={form}
      name={name}
      layout="inline"
      className="filters"
      initialValues={list.filters}
      onFinish={(values) => list.show(values)}
    >
      {children}
      <FilterButtons
        onReset={() => {
          form.resetFields();
          list.show({} as Filters);
        }}
      />
    </Form>
  );
}
