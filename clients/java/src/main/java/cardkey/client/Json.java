package cardkey.client;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A small, strict JSON reader and writer (RFC 8259), because the JDK has none.
 *
 * <p>Strict: one value and nothing after it but whitespace, no comments, no trailing commas, no
 * NaN, no leading zeros, no raw control characters in strings. Bounded: the text, the nesting
 * depth and each number have a maximum size, so a hostile answer costs little. Values decode to
 * {@code Map<String, Object>} (insertion order, a repeated name keeps its last value as in
 * JavaScript), {@code List<Object>}, {@code String}, {@code Long} (whole numbers without fraction or
 * exponent that fit), {@code BigDecimal} (any other number), {@code Boolean} and {@code null}.
 */
public final class Json {
  /** Longest text read: answers of the service are far below it (its own limit is 1 MiB). */
  public static final int MAX_CHARS = 4 * 1024 * 1024;
  /** Deepest nesting read. */
  public static final int MAX_DEPTH = 64;
  /** Longest number literal read. */
  public static final int MAX_NUMBER_CHARS = 64;

  private final String text;
  private int at;

  private Json(String text) {
    this.text = text;
  }

  /** Thrown for text that is not JSON within the limits; {@link #at} is the offending offset. */
  public static final class ParseException extends Exception {
    private static final long serialVersionUID = 1L;
    public final int at;

    ParseException(String message, int at) {
      super(message + " at offset " + at);
      this.at = at;
    }
  }

  /** Parses one JSON value. */
  public static Object parse(String text) throws ParseException {
    if (text.length() > MAX_CHARS) throw new ParseException("text longer than " + MAX_CHARS + " characters", 0);
    Json reader = new Json(text);
    reader.skipWhitespace();
    Object value = reader.value(0);
    reader.skipWhitespace();
    if (reader.at != text.length()) throw reader.error("unexpected text after the value");
    return value;
  }

  /** The JSON object in UTF-8 bytes, or null for anything else (not UTF-8, not JSON, not an object). */
  public static Map<String, Object> parseObject(byte[] utf8) {
    if (utf8 == null || utf8.length > MAX_CHARS) return null;
    try {
      var decoder = StandardCharsets.UTF_8.newDecoder();
      String text = decoder.decode(java.nio.ByteBuffer.wrap(utf8)).toString();
      return asObject(parse(text));
    } catch (ParseException | java.nio.charset.CharacterCodingException e) {
      return null;
    }
  }

  // ----- readers of decoded values -------------------------------------------------------------

  /** The value as an object, else null. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> asObject(Object value) {
    return value instanceof Map ? (Map<String, Object>) value : null;
  }

  /** The value as a string, else null. */
  public static String asString(Object value) {
    return value instanceof String s ? s : null;
  }

  /** The value when it is a whole JSON number that fits a long ({@code 1} or {@code 1.0}); never a boolean. */
  public static OptionalLong asInteger(Object value) {
    if (value instanceof Long n) return OptionalLong.of(n);
    if (value instanceof BigDecimal d) {
      // Bounded before any exact conversion: 1e999999999 must not allocate a huge integer.
      BigDecimal stripped = d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
      if (stripped.scale() > 0 || stripped.precision() - stripped.scale() > 19) return OptionalLong.empty();
      try {
        return OptionalLong.of(stripped.longValueExact());
      } catch (ArithmeticException e) {
        return OptionalLong.empty();
      }
    }
    return OptionalLong.empty();
  }

  // ----- the writer ----------------------------------------------------------------------------

  /** JSON text of a Map, List, String, Number, Boolean or null; non-ASCII characters are written as they are. */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      quote(s, out);
    } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) {
      out.append(value);
    } else if (value instanceof BigDecimal d) {
      out.append(d.toString());
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!first) out.append(',');
        first = false;
        quote(String.valueOf(entry.getKey()), out);
        out.append(':');
        write(entry.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) out.append(',');
        write(list.get(i), out);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException("cannot write a " + value.getClass().getName() + " as JSON");
    }
  }

  private static void quote(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    out.append('"');
  }

  // ----- the reader ----------------------------------------------------------------------------

  private Object value(int depth) throws ParseException {
    if (at >= text.length()) throw error("unexpected end of text");
    char c = text.charAt(at);
    return switch (c) {
      case '{' -> object(depth + 1);
      case '[' -> array(depth + 1);
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) yield number();
        throw error("unexpected character");
      }
    };
  }

  private Map<String, Object> object(int depth) throws ParseException {
    if (depth > MAX_DEPTH) throw error("nested deeper than " + MAX_DEPTH);
    at++; // {
    Map<String, Object> out = new LinkedHashMap<>();
    skipWhitespace();
    if (peek() == '}') {
      at++;
      return Collections.unmodifiableMap(out);
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') throw error("expected a property name");
      String name = string();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      out.put(name, value(depth));
      skipWhitespace();
      char c = next();
      if (c == '}') return Collections.unmodifiableMap(out);
      if (c != ',') throw error("expected ',' or '}'");
    }
  }

  private List<Object> array(int depth) throws ParseException {
    if (depth > MAX_DEPTH) throw error("nested deeper than " + MAX_DEPTH);
    at++; // [
    List<Object> out = new ArrayList<>();
    skipWhitespace();
    if (peek() == ']') {
      at++;
      return Collections.unmodifiableList(out);
    }
    while (true) {
      skipWhitespace();
      out.add(value(depth));
      skipWhitespace();
      char c = next();
      if (c == ']') return Collections.unmodifiableList(out);
      if (c != ',') throw error("expected ',' or ']'");
    }
  }

  private String string() throws ParseException {
    at++; // opening quote
    StringBuilder out = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') return out.toString();
      if (c < 0x20) throw error("raw control character in a string");
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char escaped = next();
      switch (escaped) {
        case '"', '\\', '/' -> out.append(escaped);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> out.append(hex4());
        default -> throw error("bad escape");
      }
    }
  }

  private char hex4() throws ParseException {
    if (at + 4 > text.length()) throw error("unexpected end of text");
    int code = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(text.charAt(at++), 16);
      if (digit < 0) throw error("bad \\u escape");
      code = code * 16 + digit;
    }
    return (char) code;
  }

  private Object number() throws ParseException {
    int start = at;
    if (peek() == '-') at++;
    if (peek() == '0') {
      at++;
    } else if (isDigit(peek())) {
      digits();
    } else {
      throw error("bad number");
    }
    boolean whole = true;
    if (peek() == '.') {
      whole = false;
      at++;
      if (!isDigit(peek())) throw error("bad number");
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      whole = false;
      at++;
      if (peek() == '+' || peek() == '-') at++;
      if (!isDigit(peek())) throw error("bad number");
      digits();
    }
    if (at - start > MAX_NUMBER_CHARS) throw new ParseException("number longer than " + MAX_NUMBER_CHARS + " characters", start);
    String literal = text.substring(start, at);
    if (whole && literal.length() <= 18) return Long.parseLong(literal);
    BigDecimal decimal = new BigDecimal(literal);
    if (whole) {
      try {
        return decimal.longValueExact();
      } catch (ArithmeticException tooLarge) {
        return decimal;
      }
    }
    return decimal;
  }

  private void digits() {
    while (isDigit(peek())) at++;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private Object literal(String word, Object value) throws ParseException {
    if (!text.startsWith(word, at)) throw error("unexpected word");
    at += word.length();
    return value;
  }

  private void skipWhitespace() {
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      at++;
    }
  }

  private char peek() {
    return at < text.length() ? text.charAt(at) : '\0';
  }

  private char next() throws ParseException {
    if (at >= text.length()) throw error("unexpected end of text");
    return text.charAt(at++);
  }

  private void expect(char c) throws ParseException {
    if (next() != c) throw new ParseException("expected '" + c + "'", at - 1);
  }

  private ParseException error(String message) {
    return new ParseException(message, at);
  }
}
