package cardkey.client;

import static cardkey.client.Assert.check;
import static cardkey.client.Assert.equal;

import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/** The shared vectors (sdk/vectors/signing-vectors.json), which the service and every official client check. */
public final class VectorsTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  public void hmacVectorsSignTheExactBodyBytes() throws Exception {
    for (Map<String, Object> v : Vectors.list(Vectors.all().get("hmac"))) {
      byte[] body = Vectors.text(v, "body").getBytes(StandardCharsets.UTF_8);
      byte[] input = Signing.hmacSigningInput(Vectors.text(v, "method"), Vectors.text(v, "path"), Vectors.text(v, "timestamp"), Vectors.text(v, "nonce"), body);
      equal(Vectors.text(v, "input"), new String(input, StandardCharsets.UTF_8), Vectors.text(v, "name") + " input");
      String signature = Signing.hmacSignature(Vectors.text(v, "secret"), Vectors.text(v, "method"), Vectors.text(v, "path"),
          Vectors.text(v, "timestamp"), Vectors.text(v, "nonce"), body);
      equal(Vectors.text(v, "signature"), signature, Vectors.text(v, "name"));
    }
  }

  @Test
  public void md5VectorsSortRawValuesAndLeaveOutEmptyFieldsAndSign() throws Exception {
    for (Map<String, Object> v : Vectors.list(Vectors.all().get("md5"))) {
      Map<String, String> fields = new LinkedHashMap<>();
      Vectors.object(v, "fields").forEach((name, value) -> fields.put(name, (String) value));
      equal(Vectors.text(v, "input"), Signing.md5SigningInput(fields, Vectors.text(v, "secret")), Vectors.text(v, "name") + " input");
      equal(Vectors.text(v, "sign"), Signing.md5Sign(fields, Vectors.text(v, "secret")), Vectors.text(v, "name"));
    }
  }

  @Test
  public void md5SignedFieldsAddTheTimeAndTheSign() throws Exception {
    Map<String, String> signed = Signing.md5SignedFields(Client.fields("app", "48213907", "kami", "CK-7QH2-9XKD-M3PA", "imei", "PC-001"), "lg_test_0a9b8c7d", 1763800000);
    equal("1763800000", signed.get("t"), "t");
    equal("72a9485c927d2734d909d956ae7a8e92", signed.get("sign"), "the documented sign");
  }

  @Test
  public void publishedKeyAndKid() throws Exception {
    Map<String, Object> ed = Vectors.object(Vectors.all(), "ed25519");
    byte[] raw = Trust.base64Url(Vectors.text(ed, "public_key"));
    equal(Vectors.text(ed, "public_key_hex"), HEX.formatHex(raw), "raw key");
    equal(Vectors.text(ed, "kid"), Signing.sha256Hex(raw).substring(0, 16), "kid");
    equal(Vectors.text(ed, "public_key"), FakeService.PUBLIC_KEY, "the fake service signs with the vector key");
  }

  @Test
  public void v2AnswersVerifyOverTheRequestDigestAndRefuseAnyOtherRequestByte() throws Exception {
    Map<String, Object> ed = Vectors.object(Vectors.all(), "ed25519");
    Map<String, PublicKey> keys = Map.of(Vectors.text(ed, "kid"), Trust.publicKey(Vectors.text(ed, "public_key")));
    int count = 0;
    for (Map<String, Object> v : Vectors.list(ed.get("responses"))) {
      String name = Vectors.text(v, "name");
      byte[] request = Vectors.text(v, "request").getBytes(StandardCharsets.UTF_8);
      equal(Vectors.text(v, "request_digest"), Trust.requestDigest(request), name + " digest");
      int status = Json.asInteger(v.get("status")).getAsLong() > 0 ? (int) Json.asInteger(v.get("status")).getAsLong() : 0;
      byte[] body = Vectors.text(v, "body").getBytes(StandardCharsets.UTF_8);
      byte[] input = Trust.responseSigningInput(Vectors.text(v, "method"), Vectors.text(v, "path"), Vectors.text(v, "nonce"), request,
          Vectors.text(v, "timestamp"), status, body);
      equal(Vectors.text(v, "input"), new String(input, StandardCharsets.UTF_8), name + " input");
      HttpExchange.Answer answer = new HttpExchange.Answer(status, Map.of(
          Trust.RESPONSE_TIMESTAMP_HEADER, Vectors.text(v, "timestamp"), Trust.RESPONSE_KEY_HEADER, Vectors.text(ed, "kid"),
          Trust.RESPONSE_SIGNATURE_HEADER, Vectors.text(v, "signature"), Trust.RESPONSE_VERSION_HEADER, "2"), body);
      Instant signedAt = Instant.ofEpochSecond(Long.parseLong(Vectors.text(v, "timestamp")));
      String method = Vectors.text(v, "method");
      String path = Vectors.text(v, "path");
      // A GET's digest input is its query: the vector's request is the raw query string.
      String target = method.equals("GET") ? path + "?" + Vectors.text(v, "request") : path;
      byte[] sent = Trust.requestDigestInput(method, target, method.equals("GET") ? null : request);
      equal(null, Trust.answerDistrust(new Trust.SignedAnswer(method, path, Vectors.text(v, "nonce"), sent, answer), keys, 300, signedAt), name);
      byte[] other = sent.clone();
      other[other.length - 1] ^= 1;
      equal("the answer signature does not verify",
          Trust.answerDistrust(new Trust.SignedAnswer(method, path, Vectors.text(v, "nonce"), other, answer), keys, 300, signedAt), name + " relayed");
      count++;
    }
    check(count >= 5, "every response vector checked");
  }

  @Test
  public void v1AnswersAreRefusedEvenWithAValidV1Signature() throws Exception {
    Map<String, Object> ed = Vectors.object(Vectors.all(), "ed25519");
    Map<String, PublicKey> keys = Map.of(Vectors.text(ed, "kid"), Trust.publicKey(Vectors.text(ed, "public_key")));
    for (Map<String, Object> v : Vectors.list(ed.get("responses_v1"))) {
      byte[] body = Vectors.text(v, "body").getBytes(StandardCharsets.UTF_8);
      PublicKey key = keys.values().iterator().next();
      check(Trust.verifies(key, Vectors.text(v, "input").getBytes(StandardCharsets.UTF_8), Trust.base64Url(Vectors.text(v, "signature"))),
          Vectors.text(v, "name") + ": the v1 vector is a genuine v1 signature");
      for (String version : new String[] {"1", null}) {
        Map<String, String> headers = new HashMap<>(Map.of(Trust.RESPONSE_TIMESTAMP_HEADER, Vectors.text(v, "timestamp"),
            Trust.RESPONSE_KEY_HEADER, Vectors.text(ed, "kid"), Trust.RESPONSE_SIGNATURE_HEADER, Vectors.text(v, "signature")));
        if (version != null) headers.put(Trust.RESPONSE_VERSION_HEADER, version);
        HttpExchange.Answer answer = new HttpExchange.Answer((int) Json.asInteger(v.get("status")).getAsLong(), headers, body);
        String why = Trust.answerDistrust(new Trust.SignedAnswer(Vectors.text(v, "method"), Vectors.text(v, "path"), Vectors.text(v, "nonce"), new byte[0], answer),
            keys, 300, Instant.ofEpochSecond(Long.parseLong(Vectors.text(v, "timestamp"))));
        check(why != null && why.startsWith("the answer is not signed in version 2"), Vectors.text(v, "name") + " refused: " + why);
      }
    }
  }

  @Test
  public void licenceVectorIsValidOnlyForItsProgramMachineCardAndTime() throws Exception {
    Map<String, Object> ed = Vectors.object(Vectors.all(), "ed25519");
    Map<String, PublicKey> keys = Map.of(Vectors.text(ed, "kid"), Trust.publicKey(Vectors.text(ed, "public_key")));
    for (Map<String, Object> v : Vectors.list(ed.get("licences"))) {
      Map<String, Object> payload = Vectors.object(v, "payload");
      String licence = Vectors.text(v, "licence");
      String card = Vectors.text(v, "card_key");
      String program = Vectors.text(payload, "program_id");
      String machine = Vectors.text(payload, "machine_id");
      long issued = Json.asInteger(payload.get("issued_at")).getAsLong();
      long until = Json.asInteger(payload.get("valid_until")).getAsLong();
      Licence.Check valid = Licence.verify(licence, keys, program, machine, card, Instant.ofEpochSecond(issued));
      check(valid.valid(), "valid: " + valid.reason());
      equal(payload.get("card_id"), valid.payload().get("card_id"), "payload decoded");
      check(Licence.verify(licence, keys, program, machine, card, Instant.ofEpochSecond(until)).valid(), "valid at valid_until");
      equal("expired", Licence.verify(licence, keys, program, machine, card, Instant.ofEpochSecond(until + 1)).reason(), "after valid_until");
      equal("for another machine", Licence.verify(licence, keys, program, "OTHER-PC", card, Instant.ofEpochSecond(issued)).reason(), "machine");
      equal("for another card", Licence.verify(licence, keys, program, machine, card + "X", Instant.ofEpochSecond(issued)).reason(), "card");
      equal("for another program", Licence.verify(licence, keys, "99999999", machine, card, Instant.ofEpochSecond(issued)).reason(), "program");
      equal("signed with an unknown key " + Vectors.text(ed, "kid"), Licence.verify(licence, Map.of(), program, machine, card, Instant.ofEpochSecond(issued)).reason(), "unpinned");
      String tampered = licence.substring(0, licence.length() - 2) + (licence.endsWith("A") ? "Bg" : "Ag");
      check(!Licence.verify(tampered, keys, program, machine, card, Instant.ofEpochSecond(issued)).valid(), "tampered signature");
      equal("not a licence", Licence.verify("no-dot", keys, program, machine, card, Instant.ofEpochSecond(issued)).reason(), "garbage");
    }
  }

  @Test
  public void transportVectorsSealAndOpenInEveryMode() throws Exception {
    Map<String, Object> transport = Vectors.object(Vectors.all(), "transport");
    int count = 0;
    for (String mode : new String[] {"rc4", "aes", "aes-gcm"}) {
      for (Map<String, Object> v : Vectors.list(transport.get(mode))) {
        LegacyTransport t = new LegacyTransport(mode, Vectors.text(v, "key"));
        String iv = Vectors.text(v, "iv_hex");
        equal(Vectors.text(v, "data"), t.seal(Vectors.text(v, "plaintext"), iv == null ? null : HEX.parseHex(iv)), mode + " " + Vectors.text(v, "name"));
        equal(Vectors.text(v, "plaintext"), t.open(Vectors.text(v, "data")), mode + " open " + Vectors.text(v, "name"));
        count++;
      }
    }
    equal(9, count, "vectors checked");
  }

  @Test
  public void aesBlockOfTheJdkProviderMatchesFips197() throws Exception {
    Map<String, Object> v = Vectors.object(Vectors.object(Vectors.all(), "transport"), "aes256_block");
    Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
    aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(HEX.parseHex(Vectors.text(v, "key_hex")), "AES"));
    equal(Vectors.text(v, "ciphertext_hex"), HEX.formatHex(aes.doFinal(HEX.parseHex(Vectors.text(v, "plaintext_hex")))), "AES-256 block");
  }

  @Test
  public void sealedDataThatDoesNotOpenIsRefused() throws Exception {
    for (String mode : new String[] {"aes", "aes-gcm"}) {
      LegacyTransport t = new LegacyTransport(mode, "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c");
      byte[] sealed = java.util.Base64.getDecoder().decode(t.seal("{\"id\":7}"));
      sealed[sealed.length - 1] ^= 1;
      String tampered = java.util.Base64.getEncoder().encodeToString(sealed);
      Assert.raises(IllegalArgumentException.class, () -> t.open(tampered), mode + " tampered");
      Assert.raises(IllegalArgumentException.class, () -> new LegacyTransport(mode, "another-key-entirely").open(t.seal("{}")), mode + " wrong key");
    }
    Assert.raises(IllegalArgumentException.class, () -> new LegacyTransport("des", "k"), "unknown mode");
  }
}
