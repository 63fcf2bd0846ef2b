package cardkey.client;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Beats the held session on a single-thread {@link ScheduledExecutorService} (a daemon thread), one
 * beat after another with a fixed delay, so beats never overlap. It stops for good when the session
 * ends, when {@link #stop()} is called, or when the client clears its session or is closed.
 */
public final class HeartbeatLoop {
  private static final System.Logger LOG = System.getLogger("cardkey.client");

  private final Supplier<Result> beat;
  private final HeartbeatListener listener;
  private final ScheduledExecutorService executor;
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final CompletableFuture<Optional<Result>> finished = new CompletableFuture<>();

  HeartbeatLoop(Supplier<Result> beat, Duration interval, HeartbeatListener listener) {
    this.beat = beat;
    this.listener = listener == null ? new HeartbeatListener() {} : listener;
    this.executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "cardkey-heartbeat");
      thread.setDaemon(true); // never keeps a program alive on its own
      return thread;
    });
    long millis = Math.max(1, interval.toMillis());
    executor.scheduleWithFixedDelay(this::beatOnce, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** True until the loop has stopped. */
  public boolean isRunning() {
    return !stopped.get();
  }

  /** Stops the loop: a beat on the wire is interrupted and nothing is reported after it. Safe to call twice, from any thread. */
  public void stop() {
    if (stopped.compareAndSet(false, true)) {
      executor.shutdownNow();
      finished.complete(Optional.empty());
    }
  }

  /**
   * Completes when the loop stops: with the answer that ended the session (after
   * {@code onSessionEnded} has run), or empty when it was stopped otherwise. Lets a program wait on its session: {@code loop.finished().join()}.
   */
  public CompletableFuture<Optional<Result>> finished() {
    return finished.copy();
  }

  /** Waits up to {@code timeout} for the loop to stop; true when it has (and its thread has gone). */
  public boolean await(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      finished.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      return false;
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e);
    }
    return executor.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
  }

  /** The session is over: stop, then tell the listener once. */
  void end(Result result) {
    if (!stopped.compareAndSet(false, true)) return;
    executor.shutdown(); // this may be the loop's own thread: let it finish this beat
    call(() -> listener.onSessionEnded(result));
    finished.complete(Optional.of(result)); // after the listener: a waiter sees what it did
  }

  private void beatOnce() {
    if (stopped.get()) return;
    Result result = beat.get();
    if (stopped.get()) return; // stopped or ended (the client has already told the listener) meanwhile
    if (result == null) { // the client no longer holds a session
      stop();
      return;
    }
    if (result.success()) call(() -> listener.onBeat(result));
    else call(() -> listener.onError(result));
  }

  private static void call(Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException e) {
      // The loop must outlive a faulty listener; the message only, never a result's data.
      LOG.log(System.Logger.Level.WARNING, "a heartbeat listener threw " + e.getClass().getName());
    }
  }
}
