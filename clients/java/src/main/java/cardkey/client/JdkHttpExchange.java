package cardkey.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@link HttpExchange} on {@code java.net.http}: HTTP/1.1, redirects never followed, a timeout per attempt. */
public final class JdkHttpExchange implements HttpExchange {
  /** Largest answer read; the service's answers are a few KiB. */
  public static final int MAX_ANSWER_BYTES = Json.MAX_CHARS;

  private final HttpClient http;

  /** A client of its own; {@code connectTimeout} bounds the TCP and TLS set-up. */
  public JdkHttpExchange(Duration connectTimeout) {
    this(HttpClient.newBuilder().connectTimeout(connectTimeout));
  }

  /** On a builder of yours (a proxy, an SSLContext); its redirect and version settings are overridden. */
  public JdkHttpExchange(HttpClient.Builder builder) {
    // The service never redirects a client route: a redirect is an answer to judge, not to follow.
    // HTTP/1.1: no h2c upgrade attempt on plain-HTTP deployments.
    this.http = builder.followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
  }

  @Override
  public Answer send(Request request) throws IOException, InterruptedException {
    HttpRequest.BodyPublisher body =
        request.body() == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(request.body());
    HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri()).method(request.method(), body).timeout(request.timeout());
    request.headers().forEach(builder::header);
    HttpResponse<InputStream> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
    byte[] bytes;
    try (InputStream in = response.body()) {
      // Bounded: a hostile or broken peer cannot make the client buffer without end.
      bytes = in.readNBytes(MAX_ANSWER_BYTES + 1);
    }
    if (bytes.length > MAX_ANSWER_BYTES) throw new IOException("the answer is larger than " + MAX_ANSWER_BYTES + " bytes");
    Map<String, String> headers = new LinkedHashMap<>();
    response.headers().map().forEach((name, values) -> {
      if (!values.isEmpty()) headers.put(name, values.get(0));
    });
    return new Answer(response.statusCode(), headers, bytes);
  }
}
