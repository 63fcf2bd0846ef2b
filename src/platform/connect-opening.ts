import { unreachable } from '../common/unreachable';
import type { ConnectOpeningMode } from './platform-settings.entity';

/** What of a project the Connect opening rule reads. */
export interface ConnectOpeningFacts {
  basicPackage: boolean;
  planLevel: number;
  connectEnabled: boolean;
}

/** What of the platform settings the Connect opening rule reads. */
export interface ConnectOpeningSettings {
  connect_opening_mode: ConnectOpeningMode;
  connect_min_level: number;
}

/**
 * Whether Connect is open for a project (decisions §7): one rule for the client gate and for what
 * the admin API tells the author, so the console can never say "off" while logins get in.
 */
export function connectOpen(settings: ConnectOpeningSettings, project: ConnectOpeningFacts): boolean {
  const mode = settings.connect_opening_mode;
  switch (mode) {
    case 'base_package':
      return project.basicPackage;
    case 'entitlement':
      return project.planLevel >= settings.connect_min_level;
    case 'self_service':
      return project.connectEnabled;
    default:
      return unreachable(mode, 'Connect opening mode');
  }
}
