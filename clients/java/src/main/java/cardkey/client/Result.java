package cardkey.client;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One answer of the service, whatever the family, judged by that family's success rule. No client
 * method throws for what the service or the network does: each answers a Result, and
 * {@code if (result.success())} is the one test a caller needs.
 *
 * @param success the family's success rule (Connect status true, standard code 0 — 1 on an unbind —,
 *     legacy code 1) on an answer this client trusts; a failure never passes it
 * @param code on failure the catalog code, always positive (Connect's -20002 is 20002), or a client
 *     code of {@link ErrorCodes} (never 0 or 1); on success the family's success code as sent
 * @param message Connect's {@code reason}, standard and legacy {@code msg}: may be shown to the end user
 * @param requestId body {@code request_id}, else the X-Request-Id header: log it with a failure
 * @param errorId present on SYSTEM_ERROR: log it for the administrator
 * @param httpStatus as received; 0 when no answer came back
 * @param retryAfter the Retry-After header (RATE_LIMITED): never try again sooner; null when absent
 * @param data the answer's {@code data} on success (decrypted, for the legacy transport), and on a
 *     failure whatever {@code data} it carries; never null
 * @param features the card type's features of a card answer (decisions §19), when present
 * @param endedBy why a session ended, on a SESSION_INVALID heartbeat refusal that says it
 *     (decisions §18: expired, forced_offline, card_banned...); null otherwise
 * @param endedAt when it ended (service time format); null otherwise
 * @param body the whole answer object as received, unknown fields included (empty when there was none)
 */
public record Result(
    boolean success,
    int code,
    String message,
    String requestId,
    String errorId,
    int httpStatus,
    Duration retryAfter,
    Fields data,
    List<String> features,
    String endedBy,
    String endedAt,
    Fields body) {

  public Result {
    message = message == null ? "" : message;
    data = data == null ? Fields.EMPTY : data;
    features = features == null ? List.of() : List.copyOf(features);
    body = body == null ? Fields.EMPTY : body;
  }

  /** A failure the client reports itself (no usable answer). */
  static Result failure(int code, String message, int httpStatus, String requestId) {
    return new Result(false, code, message, requestId, null, httpStatus, null, null, null, null, null, null);
  }

  /** The same answer with other data (decrypted, or with the top-level token copied in). */
  Result withData(Fields newData) {
    List<String> newFeatures = success ? newData.texts("features") : features;
    return new Result(success, code, message, requestId, errorId, httpStatus, retryAfter, newData, newFeatures, endedBy, endedAt, body);
  }

  /** The same answer, now distrusted: never a success, no data. */
  Result untrusted(String why) {
    return failure(ErrorCodes.UNTRUSTED_RESPONSE, "Untrusted answer: " + why, httpStatus, requestId);
  }

  /** Whether a successful card answer says the card is a device's trial card (decisions §21). */
  public boolean trial() {
    return success && Boolean.TRUE.equals(data.bool("trial"));
  }

  /** What to do about it, by class (docs/errors.md). */
  public ErrorCodes.Action action() {
    return ErrorCodes.action(this);
  }

  /** Retry-After, when the answer carried one. */
  public Optional<Duration> retryAfterDuration() {
    return Optional.ofNullable(retryAfter);
  }

  /** No values of {@code data}: they may be tokens, which never belong in a log. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("Result{success=").append(success).append(", code=").append(code)
        .append(", message=").append(message).append(", httpStatus=").append(httpStatus);
    if (requestId != null) out.append(", requestId=").append(requestId);
    if (errorId != null) out.append(", errorId=").append(errorId);
    if (endedBy != null) out.append(", endedBy=").append(endedBy);
    if (!features.isEmpty()) out.append(", features=").append(features);
    return out.append(", data=").append(data).append('}').toString();
  }
}
