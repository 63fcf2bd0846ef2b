import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ReplicaReads } from '../database/replica-reads';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { Page, pageOf } from '../common/paging';
import { AppConfig } from '../config/app-config';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { ProjectAccess } from '../projects/project-access';
import { ListLoginLogsQuery, LoginStatsQuery, StatsQuery } from './login-log.dto';
import { LoginCountsRepository } from './login-counts.repository';
import { LoginLog } from './login-log.entity';
import { LoginLogView, StatsView, toLoginLogView } from './login-log.view';
import { SalesCountsRepository } from '../sales/sales-counts.repository';

/** Default stats window: today and the 6 days before, in the service time zone. */
const DEFAULT_DAYS = 7;
/** Longest stats window, so one request cannot scan years of log. */
export const MAX_STATS_DAYS = 366;

/** Longest window counted from the log in another zone than APP_TIMEZONE (a longer one reads the daily counts). */
export const MAX_REZONED_DAYS = 31;

/** The login log of a project (every card-login attempt, not the request log's other rows) and its daily counts, for the author. */
@Injectable()
export class LoginLogsService {
  private readonly dayFormat: Intl.DateTimeFormat;

  constructor(
    private readonly access: ProjectAccess,
    private readonly config: AppConfig,
    private readonly replicaReads: ReplicaReads,
  ) {
    this.dayFormat = new Intl.DateTimeFormat('en-CA', {
      timeZone: config.APP_TIMEZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  }

  /** Newest first, from the read replica when there is one (ReplicaReads). */
  async list(actor: AdminPrincipal, projectId: string, query: ListLoginLogsQuery): Promise<Page<LoginLogView>> {
    const project = await this.access.find(actor, projectId);
    // Card logins only: the request log's other rows carry a route, card logins' rows never do (decisions §22).
    return this.replicaReads.read(actor.id, (db) => this.page(db, project.id, query));
  }

  private async page(db: EntityManager, projectId: string, query: ListLoginLogsQuery): Promise<Page<LoginLogView>> {
    const qb = db
      .getRepository(LoginLog)
      .createQueryBuilder('l')
      .where('l.project_id = :projectId', { projectId })
      .andWhere('l.route IS NULL');
    if (query.card_id !== undefined) qb.andWhere('l.card_id = :cardId', { cardId: query.card_id });
    if (query.machine_code !== undefined) qb.andWhere('l.machine_code = :machine', { machine: query.machine_code });
    if (query.result_code !== undefined) qb.andWhere('l.result_code = :resultCode', { resultCode: query.result_code });
    if (query.family !== undefined) qb.andWhere('l.family = :family', { family: query.family });
    if (query.interface !== undefined) qb.andWhere('l.interface = :iface', { iface: query.interface });
    if (query.request_id !== undefined) qb.andWhere('l.request_id = :requestId', { requestId: query.request_id });
    qb.orderBy('l.id', 'DESC').skip(query.skip).take(query.page_size);
    // Narrowed by what the daily counts hold (or not at all), the total is theirs: counting ten
    // million rows takes most of a second, summing their days a few milliseconds.
    const counted =
      query.card_id === undefined &&
      query.machine_code === undefined &&
      query.family === undefined &&
      query.request_id === undefined;
    const [rows, total] = counted
      ? await Promise.all([
          qb.getMany(),
          LoginCountsRepository.on(db).total(projectId, query.interface ?? null, query.result_code ?? null),
        ])
      : await qb.getManyAndCount();
    return pageOf(rows.map(toLoginLogView), total, query);
  }

  /** From the read replica when there is one (ReplicaReads). */
  async stats(actor: AdminPrincipal, projectId: string, query: LoginStatsQuery): Promise<StatsView> {
    const project = await this.access.find(actor, projectId);
    const serviceZone = this.config.APP_TIMEZONE;
    const asked =
      query.tz === undefined || canonicalZone(query.tz) === canonicalZone(serviceZone) ? serviceZone : canonicalZone(query.tz);
    const { from, to } = asked === serviceZone ? this.window(query) : statsWindow(query, dayIn(new Date(), asked));
    // Another zone's days come from the log, while the window is short and the log still holds it.
    const timeZone = asked !== serviceZone && this.logHolds(from, to) ? asked : serviceZone;
    const [rows, sales] = await this.replicaReads.read(actor.id, (db) =>
      Promise.all([
        timeZone === serviceZone
          ? LoginCountsRepository.on(db).perDay(project.id, from, to)
          : LoginCountsRepository.on(db).perDayIn(timeZone, project.id, from, to),
        // Sales of orders beside the logins (decisions §19): from their own daily counters too.
        SalesCountsRepository.in(db).items({ projectId: project.id }, from, to),
      ]),
    );
    const items = rows.map((r) => ({ day: r.day, interface: r.interface, result_code: r.result_code, count: r.count }));
    return { from, to, time_zone: timeZone, items, sales, sales_time_zone: serviceZone };
  }

  /**
   * Whether the log still holds every row of the window's days in any zone: at most MAX_REZONED_DAYS, and with
   * a retention (LOGIN_LOG_RETENTION_MONTHS) not before the oldest UTC month it keeps.
   */
  private logHolds(from: string, to: string): boolean {
    if (addDays(from, MAX_REZONED_DAYS - 1) < to) return false;
    const months = this.config.LOGIN_LOG_RETENTION_MONTHS;
    if (months <= 0) return true;
    const now = new Date();
    const oldestKept = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1);
    // The first instant of `from` in the zone is at most 14 hours before its UTC midnight.
    return Date.parse(`${from}T00:00:00Z`) - 14 * 3_600_000 >= oldestKept;
  }

  private window(query: StatsQuery): { from: string; to: string } {
    return statsWindow(query, this.dayFormat.format(new Date()));
  }
}

/** The days a stats query asks for (default: the 7 days to today), at most MAX_STATS_DAYS; a bad range is a 400. */
export function statsWindow(query: StatsQuery, today: string): { from: string; to: string } {
  const to = query.to ?? (query.from ? maxDay(query.from, today) : today);
  const from = query.from ?? addDays(to, 1 - DEFAULT_DAYS);
  if (from > to)
    throw new ServiceError(ErrorCode.BAD_REQUEST, 'from must not be after to', { details: ['from must not be after to'] });
  if (addDays(from, MAX_STATS_DAYS - 1) < to) {
    throw new ServiceError(ErrorCode.BAD_REQUEST, `At most ${MAX_STATS_DAYS} days at once`, {
      details: [`to must be at most ${MAX_STATS_DAYS - 1} days after from`],
    });
  }
  return { from, to };
}

/** The zone's canonical IANA name (`asia/shanghai` → `Asia/Shanghai`); the query already checked it is one. */
function canonicalZone(zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
}

/** `YYYY-MM-DD` of an instant in a zone. */
function dayIn(date: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** `YYYY-MM-DD` plus n calendar days. */
function addDays(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

function maxDay(a: string, b: string): string {
  return a > b ? a : b;
}
