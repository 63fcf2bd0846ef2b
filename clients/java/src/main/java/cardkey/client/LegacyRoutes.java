package cardkey.client;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The legacy V1 card routes ({@link Client#legacy()}), MD5-signed with the legacy_secret. With a
 * {@link LegacyTransport} every call goes to the aggregate entry {@code /api/app} as {@code app} in
 * clear plus the signed fields (with the canonical {@code api}) sealed in {@code data}; the answer's
 * {@code data} is opened for you, so results look the same either way. Success is {@code code 1}.
 */
public final class LegacyRoutes {
  private final Client client;
  private final String programId;
  private final String secret;
  private final LegacyTransport transport;

  LegacyRoutes(Client client, String programId, String secret, LegacyTransport transport) {
    this.client = client;
    this.programId = programId;
    this.secret = secret;
    this.transport = transport;
  }

  /** {@code POST /api/card_login} (action {@code card_login}): a compatible token in {@code data.token}, no session; retried on a missing answer. */
  public Result cardLogin(String cardKey, String machineId) {
    return cardCall("/api/card_login", "card_login", cardKey, machineId, true);
  }

  /** {@code POST /api/unbind_machine} (action {@code card_unbind}): frees this device's slot. Never retried: each unbind may deduct time. */
  public Result unbind(String cardKey, String machineId) {
    return cardCall("/api/unbind_machine", "card_unbind", cardKey, machineId, false);
  }

  private Result cardCall(String path, String api, String cardKey, String machineId, boolean idempotent) {
    Wire.Call call = new Wire.Call("POST", transport == null ? path : "/api/app", () -> {
      if (transport == null) {
        Map<String, String> signed = Signing.md5SignedFields(
            Client.fields("app", programId, "kami", cardKey, "imei", machineId, "nonce", Signing.newNonce()), secret, client.nowSeconds());
        return new Wire.Attempt(Client.headers(Client.FORM), Client.form(signed), signed.get("nonce"));
      }
      Map<String, String> signed = Signing.md5SignedFields(
          Client.fields("api", api, "app", programId, "kami", cardKey, "imei", machineId, "nonce", Signing.newNonce()), secret, client.nowSeconds());
      String data = transport.seal(new String(Client.form(signed), StandardCharsets.UTF_8));
      // The service signs its answer before it opens data, so REQUEST_NONCE is empty; the nonce
      // inside the ciphertext still binds the answer through REQUEST_DIGEST.
      return new Wire.Attempt(Client.headers(Client.FORM), Client.form(Client.fields("app", programId, "data", data)), "");
    }, idempotent);
    Result result = client.call(Family.LEGACY, call, Family.ANY_CODE);
    return Bindings.bind(open(result), Bindings.card(machineId, cardKey));
  }

  /** Opens a sealed success data; one that does not open with the key is UNEXPECTED_RESPONSE, never a success. */
  private Result open(Result result) {
    String sealed = result.body().text("data");
    if (transport == null || !result.success() || sealed == null) return result;
    Map<String, Object> data;
    try {
      data = Json.asObject(Json.parse(transport.open(sealed)));
    } catch (IllegalArgumentException | Json.ParseException e) {
      data = null;
    }
    if (data == null) {
      return Result.failure(ErrorCodes.UNEXPECTED_RESPONSE, "The answer's data does not open with the transport key (wrong legacyTransport?)",
          result.httpStatus(), result.requestId());
    }
    return result.withData(new Fields(data));
  }
}
