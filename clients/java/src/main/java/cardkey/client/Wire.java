package cardkey.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * One call on the wire, its retries, and nothing that could turn a failure into a success.
 *
 * <p>Business answers, whatever they say, come back as they are and are never retried; only a
 * missing answer (or a gateway's non-JSON 502/503/504) of an idempotent call is tried again after
 * an exponential backoff with jitter, and each attempt is built (signed, with a fresh nonce) afresh.
 */
final class Wire {
  private Wire() {}

  /** One attempt: {@code nonce} is the one it carries in clear (REQUEST_NONCE), "" when none. */
  record Attempt(Map<String, String> headers, byte[] body, String nonce) {}

  /** {@code idempotent}: sending it twice has the effect of sending it once; only then is a missing answer retried. */
  record Call(String method, String path, Supplier<Attempt> build, boolean idempotent) {}

  /** What a call came to: an answer, or none after the last attempt. */
  sealed interface Outcome permits Sent, NoAnswer {}

  /** An answer with the nonce and bytes of the attempt that got it: the signed answer covers both. */
  record Sent(HttpExchange.Answer answer, String nonce, byte[] sent) implements Outcome {}

  /** No answer: the NETWORK_ERROR result to report. */
  record NoAnswer(Result result) implements Outcome {}

  record Options(String baseUrl, HttpExchange http, Duration timeout, int retries, Duration retryDelay) {}

  /** The answer as received, or a NETWORK_ERROR result after the last attempt. */
  static Outcome send(Options options, Call call) {
    URI uri = URI.create(options.baseUrl() + call.path());
    int attempts = call.idempotent() ? options.retries() + 1 : 1;
    String lastError = "no attempt made";
    for (int attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0 && !sleep(backoff(options.retryDelay(), attempt))) {
        lastError = "interrupted";
        break;
      }
      Attempt built = call.build().get();
      try {
        HttpExchange.Answer answer = options.http().send(new HttpExchange.Request(call.method(), uri, built.headers(), built.body(), options.timeout()));
        if (!isGatewayFailure(answer)) return new Sent(answer, built.nonce(), Trust.requestDigestInput(call.method(), call.path(), built.body()));
        lastError = "HTTP " + answer.status() + " from a gateway";
      } catch (HttpTimeoutException e) {
        lastError = "timed out";
      } catch (IOException e) {
        lastError = describe(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // a stopped heartbeat: give up at once, keep the flag
        lastError = "interrupted";
        break;
      }
    }
    return new NoAnswer(Result.failure(ErrorCodes.NETWORK_ERROR, "The service could not be reached: " + lastError, 0, null));
  }

  /** A short reason: the exception's class and message, or its cause's ("ConnectException: Connection refused"). */
  private static String describe(IOException e) {
    String message = e.getMessage() != null ? e.getMessage() : e.getCause() != null ? e.getCause().getMessage() : null;
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  private static boolean isGatewayFailure(HttpExchange.Answer answer) {
    int status = answer.status();
    String type = answer.header("content-type");
    return (status == 502 || status == 503 || status == 504) && (type == null || !type.contains("json"));
  }

  /** The first delay doubled each attempt, capped at 8 times, then half of it plus a random half. */
  static Duration backoff(Duration base, int attempt) {
    long exponential = Math.min(base.toMillis() << Math.min(attempt - 1, 20), base.toMillis() * 8);
    return Duration.ofMillis(exponential / 2 + ThreadLocalRandom.current().nextLong(exponential / 2 + 1));
  }

  private static boolean sleep(Duration delay) {
    try {
      Thread.sleep(delay.toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
