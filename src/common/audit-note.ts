/**
 * What a service knows about a change that the audit interceptor cannot see: the resource's fields
 * before and after. Services note it where the entity changes, on the object that already travels
 * with the request (the AdminPrincipal an admin service is given, or the SignInClient of a
 * sign-in); the interceptor reads the notes when the handler has answered. No AsyncLocalStorage:
 * on Node 20 one turns on promise hooks for the whole process (request-context.ts).
 */
export interface ChangeNote {
  /** Refines the action the route gives (e.g. `cards.ban` for a PATCH that banned). */
  action?: string;
  resourceId?: string;
  before?: object | null;
  after?: object | null;
}

export interface ActorNote {
  id: string;
  username: string;
  role: string;
}

const changes = new WeakMap<object, ChangeNote[]>();
const actors = new WeakMap<object, ActorNote>();

export function noteChange(carrier: object, note: ChangeNote): void {
  const list = changes.get(carrier);
  if (list) list.push(note);
  else changes.set(carrier, [note]);
}

/** The account a route without a principal (the login) acted as, once it is known. */
export function noteActor(carrier: object, actor: ActorNote): void {
  actors.set(carrier, { id: actor.id, username: actor.username, role: actor.role });
}

export function changeNotesOf(...carriers: Array<object | undefined>): ChangeNote[] {
  return carriers.flatMap((c) => (c ? (changes.get(c) ?? []) : []));
}

export function actorNoteOf(carrier: object): ActorNote | undefined {
  return actors.get(carrier);
}
