package cardkey.client;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A plain test runner (no JUnit download): runs every {@link Test} method of the suites, prints one
 * line per test and a last line {@code N passed, N failed, N skipped}; exits 1 when any failed.
 *
 * <p>{@code java -cp build/classes:build/test-classes cardkey.client.TestRunner unit|live [name-filter]}
 */
public final class TestRunner {
  /** Thrown by a test that cannot run here (a live test without its service); counted as skipped. */
  static final class Skipped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Skipped(String why) {
      super(why);
    }
  }

  private static final List<Class<?>> UNIT = List.of(
      JsonTest.class, VectorsTest.class, MachineCodeTest.class, JudgeTest.class, ClientTest.class, TrustTest.class, HeartbeatTest.class,
      LegacyTest.class);
  private static final List<Class<?>> LIVE = List.of(LiveTest.class);

  public static void main(String[] args) throws Exception {
    String which = args.length > 0 ? args[0] : "unit";
    String filter = args.length > 1 ? args[1] : "";
    List<Class<?>> suites = switch (which) {
      case "unit" -> UNIT;
      case "live" -> LIVE;
      default -> throw new IllegalArgumentException("unit or live");
    };
    int passed = 0;
    int failed = 0;
    int skipped = 0;
    for (Class<?> suite : suites) {
      Method[] methods = suite.getDeclaredMethods();
      Arrays.sort(methods, Comparator.comparing(Method::getName));
      for (Method method : methods) {
        if (!method.isAnnotationPresent(Test.class)) continue;
        String name = suite.getSimpleName() + "." + method.getName();
        if (!name.contains(filter)) continue;
        long started = System.nanoTime();
        try {
          method.invoke(suite.getDeclaredConstructor().newInstance());
          passed++;
          System.out.printf("PASS %s (%d ms)%n", name, (System.nanoTime() - started) / 1_000_000);
        } catch (InvocationTargetException e) {
          Throwable cause = e.getCause();
          if (cause instanceof Skipped) {
            skipped++;
            System.out.printf("SKIP %s: %s%n", name, cause.getMessage());
          } else {
            failed++;
            System.out.printf("FAIL %s: %s%n", name, cause);
            for (StackTraceElement frame : cause.getStackTrace()) {
              if (frame.getClassName().startsWith("cardkey.")) System.out.println("    at " + frame);
            }
          }
        }
      }
    }
    System.out.printf("%s: %d passed, %d failed, %d skipped%n", which, passed, failed, skipped);
    System.exit(failed == 0 ? 0 : 1);
  }
}
