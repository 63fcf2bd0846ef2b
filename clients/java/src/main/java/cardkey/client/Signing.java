package cardkey.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Request signing exactly as the service verifies it (docs/protocol.md §3 and §5.3). Public so that
 * integrators can check their own signer against {@code sdk/vectors/signing-vectors.json}.
 */
public final class Signing {
  private Signing() {}

  public static final String TIMESTAMP_HEADER = "X-Svc-Timestamp";
  public static final String NONCE_HEADER = "X-Svc-Nonce";
  public static final String SIGNATURE_HEADER = "X-Svc-Signature";

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final HexFormat HEX = HexFormat.of();

  /** The bytes V3 and SDK requests sign: METHOD, PATH, timestamp, nonce and the raw body, joined by LF. */
  public static byte[] hmacSigningInput(String method, String path, String timestamp, String nonce, byte[] body) {
    byte[] head = (method.toUpperCase(java.util.Locale.ROOT) + "\n" + path + "\n" + timestamp + "\n" + nonce + "\n")
        .getBytes(StandardCharsets.UTF_8);
    return concat(head, body);
  }

  /** {@code X-Svc-Signature}: lowercase hex HMAC-SHA256 of the signing input under the api_secret (its UTF-8 text). */
  public static String hmacSignature(String apiSecret, String method, String path, String timestamp, String nonce, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(apiSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HEX.formatHex(mac.doFinal(hmacSigningInput(method, path, timestamp, nonce, body)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java platform", e);
    }
  }

  /**
   * The string legacy MD5 routes sign: every non-empty field except {@code sign}, sorted by name in
   * UTF-16 code-unit order (Java's and the service's {@code String} order), {@code name=value} with
   * raw values, joined by {@code &}, then {@code &key=} and the legacy_secret.
   */
  public static String md5SigningInput(Map<String, String> fields, String legacySecret) {
    List<String> names = new ArrayList<>();
    fields.forEach((name, value) -> {
      if (!name.equals("sign") && value != null && !value.isEmpty()) names.add(name);
    });
    names.sort(null);
    StringBuilder out = new StringBuilder();
    for (String name : names) out.append(name).append('=').append(fields.get(name)).append('&');
    return out.append("key=").append(legacySecret).toString();
  }

  /** {@code sign}: lowercase hex MD5 of the legacy signing input (UTF-8). */
  public static String md5Sign(Map<String, String> fields, String legacySecret) {
    return HEX.formatHex(digest("MD5", md5SigningInput(fields, legacySecret).getBytes(StandardCharsets.UTF_8)));
  }

  /** The fields plus {@code t} (unless given) and their {@code sign}, in insertion order. */
  public static Map<String, String> md5SignedFields(Map<String, String> fields, String legacySecret, long nowSeconds) {
    Map<String, String> signed = new LinkedHashMap<>(fields);
    signed.putIfAbsent("t", Long.toString(nowSeconds));
    signed.remove("sign");
    signed.put("sign", md5Sign(signed, legacySecret));
    return signed;
  }

  /** 24 hex characters of a secure random: inside every nonce rule of the service (V3/SDK 8–96, Connect 1–96). */
  public static String newNonce() {
    byte[] bytes = new byte[12];
    RANDOM.nextBytes(bytes);
    return HEX.formatHex(bytes);
  }

  /** Lowercase hex SHA-256. */
  public static String sha256Hex(byte[] bytes) {
    return HEX.formatHex(digest("SHA-256", bytes));
  }

  static byte[] digest(String algorithm, byte[] bytes) {
    try {
      return MessageDigest.getInstance(algorithm).digest(bytes);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(algorithm + " is part of every Java platform", e);
    }
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
