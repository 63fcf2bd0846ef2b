package cardkey.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Signed answers (docs/protocol.md §6, decisions §17): is this answer really the service's answer
 * to this request? With the program's keys pinned the client accepts only a valid Ed25519
 * signature, version 2, over this request's method, path, nonce and bytes sent, the status and the
 * body bytes, made within the time window.
 */
public final class Trust {
  private Trust() {}

  public static final String RESPONSE_TIMESTAMP_HEADER = "X-Svc-Response-Timestamp";
  public static final String RESPONSE_KEY_HEADER = "X-Svc-Response-Key";
  public static final String RESPONSE_SIGNATURE_HEADER = "X-Svc-Response-Signature";
  public static final String RESPONSE_VERSION_HEADER = "X-Svc-Response-Version";
  /** The only signed string believed; v1 did not bind the request and is refused. */
  public static final String RESPONSE_SIGNATURE_VERSION = "2";

  /** DER prefix of an X.509 SubjectPublicKeyInfo holding a raw 32-byte Ed25519 key (RFC 8410). */
  private static final byte[] ED25519_SPKI_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");
  private static final Pattern UNIX_SECONDS = Pattern.compile("[0-9]{1,12}");

  /**
   * What REQUEST_DIGEST hashes: the body bytes sent, or for a GET or HEAD (or a request without a
   * body) the raw query string of {@code target} without the {@code ?}.
   */
  public static byte[] requestDigestInput(String method, String target, byte[] body) {
    String upper = method.toUpperCase(Locale.ROOT);
    if (body != null && body.length > 0 && !upper.equals("GET") && !upper.equals("HEAD")) return body;
    int query = target.indexOf('?');
    return query < 0 ? new byte[0] : target.substring(query + 1).getBytes(StandardCharsets.UTF_8);
  }

  /** REQUEST_DIGEST: lowercase hex SHA-256 of what was sent. */
  public static String requestDigest(byte[] sent) {
    return Signing.sha256Hex(sent);
  }

  /** The bytes the service signs: {@code svc-response-v2\nMETHOD\nPATH\nNONCE\nTIMESTAMP\nSTATUS\nREQUEST_DIGEST\n} + body. */
  public static byte[] responseSigningInput(String method, String path, String nonce, byte[] sent, String timestamp, int status, byte[] body) {
    String head = "svc-response-v2\n" + method + "\n" + path + "\n" + nonce + "\n" + timestamp + "\n" + status + "\n" + requestDigest(sent) + "\n";
    return Signing.concat(head.getBytes(StandardCharsets.UTF_8), body);
  }

  /** A published key (base64url of the raw 32 bytes, padding optional) as a JDK key; IllegalArgumentException otherwise. */
  public static PublicKey publicKey(String base64url) {
    byte[] raw = base64Url(base64url);
    if (raw == null || raw.length != 32) throw new IllegalArgumentException("not an Ed25519 public key (base64url of 32 bytes)");
    try {
      return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(Signing.concat(ED25519_SPKI_PREFIX, raw)));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an Ed25519 public key: " + e.getMessage(), e);
    }
  }

  /** True when {@code signature} is a valid Ed25519 signature of {@code message} under {@code key}. */
  public static boolean verifies(PublicKey key, byte[] message, byte[] signature) {
    if (signature == null || signature.length != 64) return false;
    try {
      Signature verifier = Signature.getInstance("Ed25519");
      verifier.initVerify(key);
      verifier.update(message);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /** What a signature is checked over: this client's request and the answer as received. */
  public record SignedAnswer(String method, String path, String nonce, byte[] sent, HttpExchange.Answer answer) {}

  /**
   * Why the answer cannot be trusted, or null when it can: it must carry the signing headers in
   * version 2, name a pinned key (kid → key), be signed within {@code maxSkewSeconds} of {@code now},
   * and its signature must cover exactly this request and the answer.
   */
  public static String answerDistrust(SignedAnswer signed, Map<String, PublicKey> keys, long maxSkewSeconds, Instant now) {
    HttpExchange.Answer answer = signed.answer();
    String timestamp = answer.header(RESPONSE_TIMESTAMP_HEADER);
    String kid = answer.header(RESPONSE_KEY_HEADER);
    String signature = answer.header(RESPONSE_SIGNATURE_HEADER);
    if (isEmpty(timestamp) || isEmpty(kid) || isEmpty(signature)) return "the answer is not signed";
    String version = answer.header(RESPONSE_VERSION_HEADER);
    if (!RESPONSE_SIGNATURE_VERSION.equals(version)) {
      return "the answer is not signed in version " + RESPONSE_SIGNATURE_VERSION + " (" + RESPONSE_VERSION_HEADER + ": "
          + (isEmpty(version) ? "none" : version) + ")";
    }
    PublicKey key = keys.get(kid);
    if (key == null) return "the answer is signed with an unknown key " + kid;
    if (!UNIX_SECONDS.matcher(timestamp).matches() || Math.abs(now.getEpochSecond() - Long.parseLong(timestamp)) > maxSkewSeconds) {
      return "the answer signature is outside the time window";
    }
    byte[] message = responseSigningInput(signed.method(), signed.path(), signed.nonce(), signed.sent(), timestamp, answer.status(), answer.body());
    return verifies(key, message, base64Url(signature)) ? null : "the answer signature does not verify";
  }

  /** base64url with or without padding; null for anything else. */
  static byte[] base64Url(String text) {
    if (text == null) return null;
    String bare = text.endsWith("==") ? text.substring(0, text.length() - 2) : text.endsWith("=") ? text.substring(0, text.length() - 1) : text;
    try {
      return Base64.getUrlDecoder().decode(bare);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  static String base64UrlEncode(byte[] bytes) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
