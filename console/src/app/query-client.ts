import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/errors';

/** One cache for the tab; emptied when the admin signs in or out, so no one sees another's data. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal will be refused again: retry only when the service could not be reached.
      retry: (failures, error) => error instanceof ApiError && error.unreachable && failures < 2,
      refetchOnWindowFocus: false,
      staleTime: 5_000,
    },
  },
});
