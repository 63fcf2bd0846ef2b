package cardkey.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A project's legacy V1 transport encryption (docs/protocol.md §5.5) and its {@code transport_key}:
 * with it, {@link Client#legacy()} goes through the aggregate entry {@code /api/app}, sealed both ways.
 * {@code rc4} keys RC4 with the key's UTF-8 bytes; {@code aes} is AES-256-CBC (PKCS#7, a random
 * 16-byte IV first) and {@code aes-gcm} AES-256-GCM (a random 12-byte IV first, the 16-byte tag
 * last), both keyed with SHA-256 of the key's UTF-8 bytes. All from the JDK's providers.
 *
 * @param mode {@code rc4}, {@code aes} or {@code aes-gcm} ({@code aes-gcm} is authenticated: use it for new programs)
 * @param key the project's transport_key, used as its UTF-8 text
 */
public record LegacyTransport(String mode, String key) {
  private static final SecureRandom RANDOM = new SecureRandom();

  public LegacyTransport {
    if (!"rc4".equals(mode) && !"aes".equals(mode) && !"aes-gcm".equals(mode)) {
      throw new IllegalArgumentException("LegacyTransport.mode must be rc4, aes or aes-gcm");
    }
    if (key == null || key.isEmpty()) throw new IllegalArgumentException("LegacyTransport.key is required");
  }

  /** {@code data} (base64) sealing this UTF-8 text, with a fresh random IV. */
  public String seal(String text) {
    return seal(text, null);
  }

  /** {@code data} sealing this text; {@code iv} is for the test vectors only (null: a fresh random one). */
  public String seal(String text, byte[] iv) {
    byte[] plain = text.getBytes(StandardCharsets.UTF_8);
    try {
      byte[] sealed = switch (mode) {
        case "rc4" -> rc4().doFinal(plain);
        case "aes" -> {
          byte[] nonce = iv != null ? iv : random(16);
          Cipher cipher = Cipher.getInstance("AES/CBC/PKCS5Padding");
          cipher.init(Cipher.ENCRYPT_MODE, aesKey(), new IvParameterSpec(nonce));
          yield Signing.concat(nonce, cipher.doFinal(plain));
        }
        default -> {
          byte[] nonce = iv != null ? iv : random(12);
          Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
          cipher.init(Cipher.ENCRYPT_MODE, aesKey(), new GCMParameterSpec(128, nonce));
          yield Signing.concat(nonce, cipher.doFinal(plain));
        }
      };
      return Base64.getEncoder().encodeToString(sealed);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK cannot " + mode + ": " + e.getMessage(), e);
    }
  }

  /** The UTF-8 text inside {@code data}; IllegalArgumentException when it does not open (wrong key, tampered, not base64). */
  public String open(String data) {
    byte[] sealed;
    try {
      sealed = Base64.getDecoder().decode(data.replaceAll("\\s", ""));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not base64");
    }
    try {
      byte[] plain = switch (mode) {
        case "rc4" -> rc4().doFinal(sealed);
        case "aes" -> {
          if (sealed.length < 32 || sealed.length % 16 != 0) throw new IllegalArgumentException("too short or not whole blocks");
          Cipher cipher = Cipher.getInstance("AES/CBC/PKCS5Padding");
          cipher.init(Cipher.DECRYPT_MODE, aesKey(), new IvParameterSpec(sealed, 0, 16));
          yield cipher.doFinal(sealed, 16, sealed.length - 16);
        }
        default -> {
          if (sealed.length < 12 + 16) throw new IllegalArgumentException("too short");
          Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
          cipher.init(Cipher.DECRYPT_MODE, aesKey(), new GCMParameterSpec(128, sealed, 0, 12));
          yield cipher.doFinal(sealed, 12, sealed.length - 12);
        }
      };
      var decoder = StandardCharsets.UTF_8.newDecoder();
      return decoder.decode(java.nio.ByteBuffer.wrap(plain)).toString();
    } catch (GeneralSecurityException | java.nio.charset.CharacterCodingException e) {
      throw new IllegalArgumentException("does not open with this key", e);
    }
  }

  private Cipher rc4() throws GeneralSecurityException {
    // "ARCFOUR" on the JDK (alias "RC4"), "ARC4" on Android's Conscrypt; RC4 without keystream drop.
    GeneralSecurityException last = null;
    for (String name : new String[] {"ARCFOUR", "RC4", "ARC4"}) {
      try {
        Cipher cipher = Cipher.getInstance(name);
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), name));
        return cipher;
      } catch (GeneralSecurityException e) {
        last = e;
      }
    }
    throw last;
  }

  private SecretKeySpec aesKey() {
    byte[] digest = Signing.digest("SHA-256", key.getBytes(StandardCharsets.UTF_8));
    return new SecretKeySpec(digest, "AES");
  }

  private static byte[] random(int length) {
    byte[] bytes = new byte[length];
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  /** Never the key. */
  @Override
  public String toString() {
    return "LegacyTransport[mode=" + mode + ", key=[redacted]]";
  }

}
