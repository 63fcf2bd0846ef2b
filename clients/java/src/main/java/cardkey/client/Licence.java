package cardkey.client;

import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Instant;
import java.util.Map;

/**
 * Offline licences (docs/protocol.md §6.3): keep running through an outage, never through a refusal.
 * A licence is {@code base64url(payload) + "." + base64url(signature)}, the signature Ed25519 over
 * {@code "svc-licence-v1." + base64url(payload)}; it is checked without a network with the pinned keys.
 */
public final class Licence {
  private Licence() {}

  /** {@code valid} with the decoded payload, or not valid with a reason. */
  public record Check(boolean valid, Fields payload, String reason) {
    static Check refused(String reason) {
      return new Check(false, null, reason);
    }

    /** The card type's features the licence carries (decisions §19), when valid. */
    public java.util.List<String> features() {
      return payload == null ? java.util.List.of() : payload.texts("features");
    }

    /** Whether the licence is for a trial card (decisions §21), when valid. */
    public boolean trial() {
      return payload != null && Boolean.TRUE.equals(payload.bool("trial"));
    }
  }

  /**
   * Checks the signature with a pinned key (the payload's kid), the program, this machine, the card
   * (when {@code cardKey} is not null) and that {@code valid_until} (Unix seconds) has not passed at {@code now}.
   */
  public static Check verify(String licence, Map<String, PublicKey> keys, String programId, String machineId, String cardKey, Instant now) {
    String[] parts = licence == null ? new String[0] : licence.split("\\.", -1);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) return Check.refused("not a licence");
    byte[] raw = Trust.base64Url(parts[0]);
    byte[] signature = Trust.base64Url(parts[1]);
    Map<String, Object> decoded = raw == null ? null : Json.parseObject(raw);
    if (decoded == null || signature == null) return Check.refused("not a licence");
    Fields payload = new Fields(decoded);
    if (payload.integer("valid_until").isEmpty()) return Check.refused("not a licence");
    String kid = payload.text("kid");
    PublicKey key = kid == null ? null : keys.get(kid);
    if (key == null) return Check.refused("signed with an unknown key " + kid);
    if (!Trust.verifies(key, ("svc-licence-v1." + parts[0]).getBytes(StandardCharsets.UTF_8), signature)) {
      return Check.refused("the signature does not verify");
    }
    if (payload.integer("v").orElse(0) != 1 || !programId.equals(payload.text("program_id"))) return Check.refused("for another program");
    if (!machineId.equals(payload.text("machine_id"))) return Check.refused("for another machine");
    if (cardKey != null && !Signing.sha256Hex(cardKey.getBytes(StandardCharsets.UTF_8)).equals(payload.text("card_code_sha256"))) {
      return Check.refused("for another card");
    }
    if (now.getEpochSecond() > payload.integer("valid_until").getAsLong()) return Check.refused("expired");
    return new Check(true, payload, null);
  }
}
