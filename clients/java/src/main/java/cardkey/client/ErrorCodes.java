package cardkey.client;

/**
 * The codes of the service's error catalog (docs/errors.md) that client routes answer, and the
 * codes this client reports itself.
 *
 * <p>Failures carry these codes in every family (Connect's negative sign is removed), so compare
 * {@code result.code()} with them instead of parsing messages. No failure code is 0 or 1.
 */
public final class ErrorCodes {
  private ErrorCodes() {}

  public static final int BAD_REQUEST = 10001;
  public static final int METHOD_NOT_ALLOWED = 10002;
  public static final int CIPHERTEXT_NOT_ALLOWED = 10003;
  public static final int APP_REQUIRED = 10004;
  public static final int INTERNAL_KEY_NOT_ACCEPTED = 10005;
  public static final int NOT_FOUND = 10006;
  public static final int UNSUPPORTED_MEDIA_TYPE = 10007;
  public static final int PAYLOAD_TOO_LARGE = 10008;
  public static final int DOWNLOAD_ADDRESS_INVALID = 10009;
  public static final int HTTPS_REQUIRED = 10010;
  public static final int SIGNATURE_INVALID = 10101;
  public static final int TIMESTAMP_OUT_OF_WINDOW = 10102;
  public static final int NONCE_REPLAYED = 10103;
  public static final int PROGRAM_NOT_FOUND = 10201;
  public static final int PROGRAM_DISABLED = 10202;
  public static final int AUTHOR_DISABLED = 10203;
  public static final int VERIFICATION_SWITCH_OFF = 10204;
  public static final int PACKAGE_NOT_ENABLED = 10205;
  public static final int INTERFACE_NOT_AUTHORIZED = 10206;
  public static final int INTERFACE_DISABLED = 10207;
  public static final int CONNECT_NOT_ENABLED = 10208;
  public static final int QUOTA_EXCEEDED = 10301;
  public static final int RATE_LIMITED = 10302;
  public static final int FILE_NOT_FOUND = 11108;
  public static final int CARD_INVALID = 20001;
  public static final int CARD_EXPIRED = 20002;
  public static final int CARD_BANNED = 20003;
  public static final int DEVICE_LIMIT_REACHED = 20004;
  public static final int UNBIND_REFUSED = 20005;
  public static final int CARD_NO_USES_LEFT = 20006;
  public static final int SEATS_FULL = 20007;
  public static final int TOPUP_REFUSED = 20008;
  public static final int CHECKOUT_DISABLED = 20009;
  public static final int DEVICE_NOT_BOUND = 20010;
  public static final int TRIAL_USED = 20011;
  public static final int USERNAME_TAKEN = 30001;
  public static final int BAD_CREDENTIALS = 30002;
  public static final int USER_BANNED = 30003;
  public static final int MACHINE_MISMATCH = 30004;
  public static final int SESSION_INVALID = 30101;
  public static final int SESSION_TYPE_MISMATCH = 30102;
  public static final int SITE_NOT_AUTHORIZED = 40001;
  public static final int BLACKLISTED = 40002;
  public static final int IP_NOT_BOUND = 40003;
  public static final int SYSTEM_ERROR = 50000;

  /** No answer: refused, reset, DNS, timeout (after the retries of an idempotent call). */
  public static final int NETWORK_ERROR = 90001;
  /** An answer that is not the family's JSON (HTML, a redirect, an empty body): the address is wrong. */
  public static final int UNEXPECTED_RESPONSE = 90002;
  /** A heartbeat without a held session of that type; nothing was sent. */
  public static final int NO_SESSION = 90003;
  /** Not the service's answer to this request (signature, or a success naming another device, card or owner). */
  public static final int UNTRUSTED_RESPONSE = 90004;

  /** Codes after which a session is gone for good: clear it, leave protected functions, log in again. */
  public static boolean sessionEnded(int code) {
    return code == SESSION_INVALID || code == SESSION_TYPE_MISMATCH;
  }

  /** What a program should do about a failure, by class (docs/errors.md). */
  public enum Action {
    /** Nothing: it succeeded. */
    NONE,
    /** A business refusal (card, user, device): show the message; never retry automatically. */
    SHOW_AND_STOP,
    /** Wait {@code retryAfter()} (or until the quota resets) before trying again. */
    WAIT_THEN_RETRY,
    /** The service was not reached or faulted: retry later with back-off. */
    RETRY_LATER,
    /** The session ended: clear it, leave protected functions, log in again. */
    LOG_IN_AGAIN,
    /** Not the service's answer: never run protected functions on it; check pinned keys if it persists. */
    DISTRUST,
    /** A configuration or programming error (address, program ID, secret, clock): fix it; do not retry unchanged. */
    FIX_CONFIGURATION,
  }

  /** The class of a result's code, as docs/errors.md advises. */
  public static Action action(Result result) {
    if (result.success()) return Action.NONE;
    int code = result.code();
    if (sessionEnded(code)) return Action.LOG_IN_AGAIN;
    if (code == UNTRUSTED_RESPONSE) return Action.DISTRUST;
    if (code == NETWORK_ERROR || code == SYSTEM_ERROR || code == INTERFACE_DISABLED) return Action.RETRY_LATER;
    if (code == RATE_LIMITED || code == QUOTA_EXCEEDED || code == SEATS_FULL) return Action.WAIT_THEN_RETRY;
    if (code >= 20001 && code < 50000) return Action.SHOW_AND_STOP;
    if (code >= 10202 && code <= 10208) return Action.SHOW_AND_STOP;
    return Action.FIX_CONFIGURATION;
  }
}
