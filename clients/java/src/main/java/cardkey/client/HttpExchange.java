package cardkey.client;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one thing the client needs from an HTTP stack: send one request, read the whole answer.
 *
 * <p>The default is {@link JdkHttpExchange} ({@code java.net.http}). On Android, implement this
 * with OkHttp or {@code HttpURLConnection} in a few lines: do not follow redirects (the service
 * never sends one, so a redirect is an answer to judge), give back every status as an answer (4xx
 * and 5xx included), and throw {@link IOException} only when no answer came.
 */
@FunctionalInterface
public interface HttpExchange {
  /** Sends the request; the answer as received, or IOException when none came (refused, reset, timeout). */
  Answer send(Request request) throws IOException, InterruptedException;

  /** One attempt; {@code body} is the exact bytes signed, sent as they are. */
  record Request(String method, URI uri, Map<String, String> headers, byte[] body, Duration timeout) {
    public Request {
      headers = Map.copyOf(headers);
    }
  }

  /** An answer: headers by lower-case name (a repeated header keeps its first value), the body bytes as received. */
  record Answer(int status, Map<String, String> headers, byte[] body) {
    public Answer {
      Map<String, String> lower = new TreeMap<>();
      headers.forEach((name, value) -> lower.putIfAbsent(name.toLowerCase(Locale.ROOT), value));
      headers = Map.copyOf(lower);
      body = body == null ? new byte[0] : body;
    }

    /** A header by name, any case; null when absent. */
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }
}
