import { AppConfig } from '../config/app-config';
import { JsonLogger } from '../core/logging/json-logger';
import { BackupSchedule, CHECK_EVERY_MS, FIRST_CHECK_MS } from './backup-schedule';
import { BackupsRepository } from './backups.repository';
import { BackupsService } from './backups.service';

/** When the schedule looks: its timers, not the backup (test/e2e/operations/backups-api.e2e-spec.ts takes real ones). */
describe(BackupSchedule.name, () => {
  let looks: number[];

  function scheduleWith(intervalHours: number): BackupSchedule {
    const repository = {
      claimScheduledTurn: (seconds: number) => {
        looks.push(seconds);
        return Promise.resolve(null); // not due: no backup is made
      },
    } as unknown as BackupsRepository;
    const config = { BACKUP_INTERVAL_HOURS: intervalHours, BACKUP_KEEP: 7 } as AppConfig;
    return new BackupSchedule({} as BackupsService, repository, config, new JsonLogger('error', () => undefined));
  }

  beforeEach(() => {
    looks = [];
    jest.useFakeTimers();
  });
  afterEach(() => jest.useRealTimers());

  it('looks shortly after the start, then every few minutes, for a turn of the configured interval', async () => {
    const schedule = scheduleWith(24);
    schedule.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(FIRST_CHECK_MS - 1);
    expect(looks).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(looks).toEqual([24 * 3600]);
    await jest.advanceTimersByTimeAsync(CHECK_EVERY_MS);
    expect(looks).toHaveLength(2);
    await schedule.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(10 * CHECK_EVERY_MS);
    expect(looks).toHaveLength(2);
  });

  it('never looks when BACKUP_INTERVAL_HOURS is 0', async () => {
    scheduleWith(0).onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10 * CHECK_EVERY_MS);
    expect(looks).toEqual([]);
  });

  it('keeps no process alive by its timers', () => {
    const schedule = scheduleWith(24);
    schedule.onApplicationBootstrap();
    const timers = schedule as unknown as { first: NodeJS.Timeout; timer: NodeJS.Timeout };
    expect([timers.first.hasRef(), timers.timer.hasRef()]).toEqual([false, false]);
    schedule.onApplicationShutdown();
  });
});
