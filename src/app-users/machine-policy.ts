import { unreachable } from '../common/unreachable';
import { UserMachinePolicy } from '../projects/project.entity';

export interface MachineDecision {
  /** The bound machine after this login (free: unchanged). */
  bound: string | null;
  /** Whether the stored binding changes. */
  changed: boolean;
  /** rebind: the user's earlier sessions end. */
  revokeOthers: boolean;
  /** The machine the login answers (`machine_id`): the binding, or under `free` the login's own. */
  answered: string;
}

/**
 * What a login from `machine` does to a user's binding under the project's policy (decisions §6):
 * `rebind` moves the binding to this machine and ends the other sessions; `locked` binds the first
 * machine and refuses any other (null); `free` binds nothing.
 */
export function decideMachine(policy: UserMachinePolicy, bound: string | null, machine: string): MachineDecision | null {
  switch (policy) {
    case 'rebind':
      return { bound: machine, changed: bound !== machine, revokeOthers: true, answered: machine };
    case 'locked':
      if (bound === null) return { bound: machine, changed: true, revokeOthers: false, answered: machine };
      return bound === machine ? { bound, changed: false, revokeOthers: false, answered: machine } : null;
    case 'free':
      return { bound, changed: false, revokeOthers: false, answered: machine };
    default:
      return unreachable(policy, 'user machine policy');
  }
}

/** Whether a live session on `machine` still fits the user's binding (checked by each heartbeat). */
export function sessionFitsBinding(policy: UserMachinePolicy, bound: string | null, machine: string): boolean {
  return policy === 'free' || bound === machine;
}
