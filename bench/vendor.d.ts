// The parts of autocannon 9 and pg 8 the bench uses (neither package ships types).

declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Mutates or replaces each request before it is sent; a falsy answer restarts the request list. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request | false | null | undefined;
    }
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      requests?: Request[];
      /** Every answer body; a falsy answer counts the request in `mismatches`. */
      verifyBody?: (body: string) => boolean;
    }
    /** One of autocannon's histograms (a subset of its percentiles). */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      duration: number;
    }
    /** A running load: its result when it ends, and an event per answer (`responseTime` in ms). */
    interface Instance extends Promise<Result> {
      on(
        event: 'response',
        listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
      ): Instance;
    }
  }
  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}

declare module 'pg' {
  export interface QueryResult<R> {
    rows: R[];
    rowCount: number | null;
  }
  export class Client {
    constructor(config: { connectionString: string });
    connect(): Promise<void>;
    query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
    end(): Promise<void>;
  }
}
