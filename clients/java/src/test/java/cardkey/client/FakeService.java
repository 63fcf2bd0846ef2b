package cardkey.client;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A scripted service behind {@link HttpExchange}: each request gets the next scripted answer (the
 * last one repeats), signed with the RFC 8032 test key as the service signs (v2) unless told not to.
 */
final class FakeService implements HttpExchange {
  static final String SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
  static final String PUBLIC_KEY = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
  static final String KID = "21fe31dfa154a261";
  static final Map<String, String> KEYS = Map.of(KID, PUBLIC_KEY);

  /** The RFC 8032 key as a JDK private key (PKCS#8 DER prefix + seed, as the service holds it). */
  static final PrivateKey PRIVATE_KEY = privateKey();

  private final Deque<Function<Request, Answer>> script = new ArrayDeque<>();
  final List<Request> requests = new ArrayList<>();

  /** Answers next with this status and JSON body, signed. */
  FakeService answer(int status, String body) {
    return then(request -> sign(request, status, body, Map.of("Content-Type", "application/json")));
  }

  /** Answers next with whatever the function makes (e.g. an unsigned or tampered answer, or an IOException as null). */
  FakeService then(Function<Request, Answer> responder) {
    script.add(responder);
    return this;
  }

  /** No answer next: a refused connection. */
  FakeService down() {
    return then(request -> null);
  }

  @Override
  public synchronized Answer send(Request request) throws IOException {
    requests.add(request);
    Function<Request, Answer> next = script.size() > 1 ? script.poll() : script.peek();
    if (next == null) throw new IOException("nothing scripted");
    Answer answer = next.apply(request);
    if (answer == null) throw new IOException("Connection refused");
    return answer;
  }

  synchronized Request last() {
    return requests.get(requests.size() - 1);
  }

  /** The v2 signed answer to this request (decisions §17), timestamp now. */
  static Answer sign(Request request, int status, String body, Map<String, String> extraHeaders) {
    return signAt(request, status, body, extraHeaders, Instant.now().getEpochSecond(), "2");
  }

  static Answer signAt(Request request, int status, String body, Map<String, String> extraHeaders, long timestamp, String version) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String path = request.uri().getRawPath();
    byte[] sent = Trust.requestDigestInput(request.method(), path, request.body());
    byte[] input = version.equals("2")
        ? Trust.responseSigningInput(request.method(), path, nonceOf(request), sent, Long.toString(timestamp), status, bytes)
        : Signing.concat(("svc-response-v1\n" + request.method() + "\n" + path + "\n" + nonceOf(request) + "\n" + timestamp + "\n" + status + "\n")
            .getBytes(StandardCharsets.UTF_8), bytes);
    Map<String, String> headers = new LinkedHashMap<>(extraHeaders);
    headers.put("X-Svc-Response-Timestamp", Long.toString(timestamp));
    headers.put("X-Svc-Response-Key", KID);
    headers.put("X-Svc-Response-Signature", Trust.base64UrlEncode(ed25519(input)));
    headers.put("X-Svc-Response-Version", version);
    return new Answer(status, headers, bytes);
  }

  /** The nonce a request carries in clear: X-Svc-Nonce, else a form field {@code nonce}. */
  static String nonceOf(Request request) {
    String header = request.headers().get(Signing.NONCE_HEADER);
    if (header != null) return header;
    String type = request.headers().getOrDefault("Content-Type", "");
    if (type.startsWith(Client.FORM) && request.body() != null) {
      String nonce = formFields(request.body()).get("nonce");
      if (nonce != null) return nonce;
    }
    return "";
  }

  static Map<String, String> formFields(byte[] body) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String pair : new String(body, StandardCharsets.UTF_8).split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return out;
  }

  static byte[] ed25519(byte[] message) {
    try {
      Signature signer = Signature.getInstance("Ed25519");
      signer.initSign(PRIVATE_KEY);
      signer.update(message);
      return signer.sign();
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static PrivateKey privateKey() {
    try {
      byte[] der = HexFormat.of().parseHex("302e020100300506032b657004220420" + SEED);
      return KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A client of this fake, with fast retries; {@code pinned}: the RFC key pinned. */
  Client client(boolean pinned) {
    Client.Builder builder = Client.builder().baseUrl("http://fake.test").programId("48213907").apiSecret("sk_test_secret")
        .legacySecret("lg_test_secret").retryDelay(java.time.Duration.ofMillis(1)).http(this);
    if (pinned) builder.responseKeys(KEYS);
    return builder.build();
  }
}
