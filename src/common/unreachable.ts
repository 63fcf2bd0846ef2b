/**
 * The `default` of a switch over a union (a family, a mode, a policy, an action): the value is
 * `never` there, so a member added to the union without its own case is a compile error. At run
 * time (a value from outside the types) it throws, which is a platform fault, never a success.
 */
export function unreachable(value: never, what: string): never {
  throw new Error(`Unhandled ${what}: ${String(value)}`);
}
