import { useSyncExternalStore } from 'react';

/** A preference, never a secret: each user's browser keeps its own. */
const KEY = 'cardkey.console.time-zone';
const listeners = new Set<() => void>();

/** The browser's own zone: the default until the user picks another. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Every zone this browser can format, the browser's own and UTC first. */
export function timeZones(): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([browserTimeZone(), 'UTC', ...all])];
}

function isUsable(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function read(): string {
  const stored = localStorage.getItem(KEY);
  return stored && isUsable(stored) ? stored : browserTimeZone();
}

export function setTimeZone(zone: string): void {
  if (zone === browserTimeZone()) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, zone);
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab of the same browser changed it.
  const onStorage = (event: StorageEvent) => event.key === KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The zone every date of the console is shown and entered in. */
export function useTimeZone(): string {
  return useSyncExternalStore(subscribe, read);
}

type Parts = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function partsIn(instant: Date, zone: string): Parts {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The console's one date format, the same in both languages: `2026-03-05 14:07:09` in `zone`. */
export function formatInZone(instant: Date, zone: string): string {
  const p = partsIn(instant, zone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** `YYYY-MM-DDTHH:mm` of `instant` in `zone`, for a datetime-local input. */
export function toZoneInput(instant: Date, zone: string): string {
  const p = partsIn(instant, zone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** The instant a wall-clock time (`YYYY-MM-DDTHH:mm`) of `zone` names (the later one in a repeated hour). */
export function fromZoneInput(local: string, zone: string): Date {
  const [date, time = '00:00'] = local.split('T');
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The zone's offset at a guess, then at the corrected instant (they differ only across a change of offset).
  const offsetAt = (instant: number) => {
    const p = partsIn(new Date(instant), zone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
  };
  const first = wall - offsetAt(wall);
  return new Date(wall - offsetAt(first));
}
