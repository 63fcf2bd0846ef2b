package cardkey.client;

/**
 * Told what a {@link HeartbeatLoop} sees; every method is optional. Methods run on the loop's
 * thread ({@code onSessionEnded} on that of a direct heartbeat call that met the end first); one
 * that throws is logged and does not stop the loop.
 */
public interface HeartbeatListener {
  /** Each renewal. */
  default void onBeat(Result result) {}

  /** Every other failure (network, quota, an untrusted answer...): the loop keeps its rhythm. */
  default void onError(Result result) {}

  /**
   * Once, when the session ends (SESSION_INVALID, SESSION_TYPE_MISMATCH; {@code result.endedBy()}
   * says why when the service tells): the session is already cleared. Leave the protected
   * functions and ask for a new login.
   */
  default void onSessionEnded(Result result) {}
}
