package cardkey.client;

import java.util.Objects;

/** The few assertions the tests need; a failure throws AssertionError with what was expected. */
final class Assert {
  private Assert() {}

  static void check(boolean condition, String what) {
    if (!condition) throw new AssertionError(what);
  }

  static void equal(Object expected, Object actual, String what) {
    if (!Objects.equals(expected, actual)) throw new AssertionError(what + ": expected <" + expected + "> but was <" + actual + ">");
  }

  /** A result that must be a failure with this code. */
  static void refused(Result result, int code, String what) {
    if (result.success() || result.code() != code) throw new AssertionError(what + ": expected a failure " + code + " but was " + result);
  }

  static void succeeded(Result result, String what) {
    if (!result.success()) throw new AssertionError(what + ": expected a success but was " + result);
  }

  static <T extends Throwable> T raises(Class<T> type, Runnable action, String what) {
    try {
      action.run();
    } catch (Throwable thrown) {
      if (type.isInstance(thrown)) return type.cast(thrown);
      throw new AssertionError(what + ": expected " + type.getSimpleName() + " but got " + thrown, thrown);
    }
    throw new AssertionError(what + ": expected " + type.getSimpleName() + " but nothing was thrown");
  }
}
