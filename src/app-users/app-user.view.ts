import { formatLocalTime } from '../common/time';
import { AppUser, AppUserStatus } from './app-user.entity';

/** The profile a client sees at login: times in the service time zone (decisions §1). */
export interface AppUserProfile {
  user_id: number;
  username: string;
  status: AppUserStatus;
  created_at: string;
  last_login_at: string | null;
}

/** The admin API's program-user resource (decisions §11): ISO times, never the password hash. */
export interface AppUserView {
  user_id: number;
  username: string;
  status: AppUserStatus;
  machine_id: string | null;
  created_at: string;
  last_login_at: string | null;
}

export function toProfile(user: AppUser, timeZone: string): AppUserProfile {
  return {
    user_id: user.id,
    username: user.username,
    status: user.status,
    created_at: formatLocalTime(user.createdAt, timeZone),
    last_login_at: user.lastLoginAt ? formatLocalTime(user.lastLoginAt, timeZone) : null,
  };
}

export function toAppUserView(user: AppUser): AppUserView {
  return {
    user_id: user.id,
    username: user.username,
    status: user.status,
    machine_id: user.boundMachineId,
    created_at: user.createdAt.toISOString(),
    last_login_at: user.lastLoginAt ? user.lastLoginAt.toISOString() : null,
  };
}
