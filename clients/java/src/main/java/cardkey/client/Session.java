package cardkey.client;

/**
 * The session held after an SDK card or user login. Keep it across runs (store its fields) and give
 * it back to {@link Client#restoreSession}: the next heartbeat tells whether it still holds.
 *
 * @param type a card session or a program-user session
 * @param token the session token: a secret, never shown by {@link #toString()}
 * @param machineId the machine the session was opened on (a user's: the machine finally bound)
 * @param expiresAt {@code session_expires_at}, service time format; renewed by each heartbeat
 * @param heartbeatIntervalSeconds the program's interval from the login answer; 0 when not given
 * @param cardId the card of a card session: a heartbeat answer must name it ({@code card_id}); 0 when unknown
 * @param userId the user of a user session: a heartbeat answer must name it ({@code user_id}); 0 when unknown
 */
public record Session(Type type, String token, String machineId, String expiresAt, long heartbeatIntervalSeconds, long cardId, long userId) {
  /** The kinds of session an SDK login opens. */
  public enum Type {
    CARD,
    APP_USER
  }

  public Session {
    if (type == null) throw new IllegalArgumentException("Session.type is required");
    if (token == null || token.isEmpty()) throw new IllegalArgumentException("Session.token is required");
    if (machineId == null || machineId.isEmpty()) throw new IllegalArgumentException("Session.machineId is required");
    expiresAt = expiresAt == null ? "" : expiresAt;
  }

  Session renewedUntil(String newExpiry) {
    return new Session(type, token, machineId, newExpiry, heartbeatIntervalSeconds, cardId, userId);
  }

  /** Never the token. */
  @Override
  public String toString() {
    return "Session[type=" + type + ", token=[redacted], machineId=" + machineId + ", expiresAt=" + expiresAt
        + ", cardId=" + cardId + ", userId=" + userId + "]";
  }
}
