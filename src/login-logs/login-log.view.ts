import { LoginLog } from './login-log.entity';

/** The admin API's login-log entry. */
export function toLoginLogView(log: LoginLog) {
  return {
    id: Number(log.id),
    card_id: log.cardId,
    card_code: log.cardCode,
    machine_code: log.machineCode,
    ip: log.ip,
    family: log.family,
    interface: log.interface,
    result_code: log.resultCode,
    request_id: log.requestId,
    created_at: log.createdAt.toISOString(),
  };
}

export type LoginLogView = ReturnType<typeof toLoginLogView>;

/** One count of the stats: login attempts of one local day, interface and result code. */
export interface StatsItem {
  day: string;
  interface: string;
  result_code: number;
  count: number;
}

export interface StatsView {
  from: string;
  to: string;
  time_zone: string;
  items: StatsItem[];
}
