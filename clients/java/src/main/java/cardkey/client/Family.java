package cardkey.client;

import java.util.Map;
import java.util.OptionalLong;

/** A protocol family; each has its own success rule (docs/protocol.md §1). */
public enum Family {
  /** Connect: {@code status === true}, never {@code code}. */
  CONNECT(1),
  /** HTTP V3 and SDK v1: {@code success}, or where it is absent {@code code} 0 or 1. */
  STANDARD(0),
  /** Legacy: {@code code === 1}. */
  LEGACY(1);

  /** The success code the family sends, for a success marked otherwise. */
  final long successCode;

  Family(long successCode) {
    this.successCode = successCode;
  }

  /** A standard route that accepts code 0 or 1; top-up and info fix 0, the SDK unbind fixes 1. */
  public static final int ANY_CODE = -1;

  /**
   * The success rule alone. {@code routeCode} is a standard route's own success code (0 or 1, or
   * {@link #ANY_CODE}): such a route succeeds only on exactly that code with {@code success} not false.
   */
  public boolean isSuccess(Map<String, Object> body, int routeCode) {
    if (routeCode != ANY_CODE && (this != STANDARD || (routeCode != 0 && routeCode != 1))) {
      throw new IllegalArgumentException("a route's own success code is a standard-family rule: 0 or 1");
    }
    OptionalLong code = Json.asInteger(body.get("code"));
    Object success = body.get("success");
    return switch (this) {
      case CONNECT -> Boolean.TRUE.equals(body.get("status"));
      case STANDARD -> {
        if (routeCode != ANY_CODE) yield code.isPresent() && code.getAsLong() == routeCode && !Boolean.FALSE.equals(success);
        if (success instanceof Boolean b) yield b;
        yield code.isPresent() && (code.getAsLong() == 0 || code.getAsLong() == 1);
      }
      case LEGACY -> code.isPresent() && code.getAsLong() == 1;
    };
  }
}
