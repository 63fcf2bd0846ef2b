package cardkey.client;

/**
 * The nonce of a Connect login: {@link #fresh()} (a new random one per attempt, the default),
 * {@link #none()}, or {@link #own(String)} (sent as is and never retried: the service answers a
 * repeat within 60 s with NONCE_REPLAYED).
 */
public record ConnectNonce(String own, boolean send) {
  private static final ConnectNonce FRESH = new ConnectNonce(null, true);
  private static final ConnectNonce NONE = new ConnectNonce(null, false);

  public static ConnectNonce fresh() {
    return FRESH;
  }

  public static ConnectNonce none() {
    return NONE;
  }

  /** A nonce of yours, 1–96 of {@code [A-Za-z0-9_.:-]}. */
  public static ConnectNonce own(String nonce) {
    if (nonce == null || nonce.isEmpty()) throw new IllegalArgumentException("a Connect nonce of your own cannot be empty");
    return new ConnectNonce(nonce, true);
  }

  boolean isFresh() {
    return own == null && send;
  }
}
