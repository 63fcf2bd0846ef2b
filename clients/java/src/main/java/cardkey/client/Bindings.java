package cardkey.client;

import java.util.List;
import java.util.OptionalLong;

/**
 * decisions §17: a success naming another device, card or session owner than the one this client
 * sent is not the answer to its request (a relay swapped them): UNTRUSTED_RESPONSE, never a success.
 * Messages name what differs, never the values.
 */
final class Bindings {
  private Bindings() {}

  /** A field of a success's data that must hold what was sent; {@code required}: absent is a mismatch too. */
  record Named(String field, Object value, String what, boolean required) {}

  /** A card answer names the device sent ({@code machine_code}) and, where it carries it, the card ({@code code}). */
  static List<Named> card(String machineId, String cardKey) {
    return List.of(new Named("machine_code", machineId, "device", true), new Named("code", cardKey, "card", false));
  }

  static Result bind(Result result, List<Named> expected) {
    if (!result.success()) return result;
    for (Named named : expected) {
      Object found = result.data().get(named.field());
      boolean present = found != null; // JSON null counts as absent
      if ((!present && named.required()) || (present && !same(found, named.value()))) {
        return result.untrusted("it is for another " + named.what() + " than the one sent");
      }
    }
    return result;
  }

  private static boolean same(Object found, Object expected) {
    if (expected instanceof String s) return s.equals(found);
    if (expected instanceof Long n) {
      OptionalLong number = Json.asInteger(found);
      return number.isPresent() && number.getAsLong() == n;
    }
    return false;
  }
}
