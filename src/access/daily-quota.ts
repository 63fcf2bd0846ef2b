import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { SharedStore } from '../core/store/shared-store';
import type { InterfaceName } from '../platform/interface-names';

const TWO_DAYS = 2 * 86400;

/** The counter of a project's daily quota on one interface (the gate counts it, the Overview reads it). */
export const interfaceQuotaSubject = (projectId: string, name: InterfaceName): string => `${projectId}:${name}`;

/**
 * Daily counters that reset at midnight in APP_TIMEZONE, kept in the shared store so that every
 * instance counts together. A use refused for quota is not counted.
 */
@Injectable()
export class DailyQuota {
  private readonly dayFormat: Intl.DateTimeFormat;

  constructor(
    config: AppConfig,
    private readonly store: SharedStore,
  ) {
    this.dayFormat = new Intl.DateTimeFormat('en-CA', {
      timeZone: config.APP_TIMEZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  }

  /** Counts one use of `subject`; false (and nothing counted) when `limit` is already reached. */
  async consume(subject: string, limit: number | null): Promise<boolean> {
    if (limit === null) return true;
    return (await this.store.increment(`quota:${subject}:${this.today()}`, TWO_DAYS, limit)) !== null;
  }

  /** Gives back a use counted by `consume` (when the request it admitted was refused further on). */
  async release(subject: string, limit: number | null): Promise<void> {
    if (limit !== null) await this.store.decrement(`quota:${subject}:${this.today()}`);
  }

  async used(subject: string): Promise<number> {
    return Number((await this.store.get(`quota:${subject}:${this.today()}`)) ?? 0);
  }

  today(now = new Date()): string {
    return this.dayFormat.format(now);
  }
}
