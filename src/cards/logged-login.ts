import type { ClientFamilyName } from '../core/client-families';
import { classifyError } from '../core/errors/to-service-error';

/**
 * Runs `work`, a part of a card login of `family` that comes after its login-log row is decided:
 * whatever it throws says that the login recorded the attempt (`ServiceError.loggedLogin`), a fault
 * as the SYSTEM_ERROR the envelope would answer anyway (same error id and cause). The HTTP layer
 * reads that from the refusal; the card login never touches the request context, so it runs alike outside HTTP.
 */
export async function asLoggedLogin<T>(family: ClientFamilyName, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (thrown) {
    throw classifyError(thrown).error.ofLoggedLogin(family);
  }
}
