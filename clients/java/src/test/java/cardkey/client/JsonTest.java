package cardkey.client;

import static cardkey.client.Assert.check;
import static cardkey.client.Assert.equal;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON reader is strict and bounded; the writer writes what the service signs and reads. */
public final class JsonTest {
  @Test
  public void readsEveryKindOfValue() throws Exception {
    Map<String, Object> o = Json.asObject(Json.parse(
        " {\"s\":\"a\\\"b\\\\c\\/\\n\\u00e9\\ud83d\\ude00\",\"i\":-42,\"f\":1.5e2,\"t\":true,\"n\":null,\"a\":[1,{\"x\":[]}],\"big\":123456789012345678901234} "));
    equal("a\"b\\c/\né😀", o.get("s"), "string escapes and a surrogate pair");
    equal(-42L, o.get("i"), "integer");
    equal(new BigDecimal("1.5e2"), o.get("f"), "decimal");
    equal(Boolean.TRUE, o.get("t"), "true");
    check(o.containsKey("n") && o.get("n") == null, "null kept");
    equal(2, ((List<?>) o.get("a")).size(), "array");
    check(Json.asInteger(o.get("big")).isEmpty(), "a number beyond a long is not an integer");
    equal(150L, Json.asInteger(o.get("f")).getAsLong(), "1.5e2 is the whole number 150");
  }

  @Test
  public void refusesWhatIsNotStrictJson() {
    for (String bad : new String[] {"", "{", "{\"a\":1,}", "[1,]", "{'a':1}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":-}", "NaN", "{\"a\":Infinity}",
        "{\"a\":1} x", "{\"a\":\"\u0001\"}", "{\"a\":\"\\x\"}", "{a:1}", "tru", "{\"a\":1}{}", "/*c*/{}", "{\"a\":\"\\u12\"}"}) {
      try {
        Json.parse(bad);
        throw new AssertionError("accepted " + bad);
      } catch (Json.ParseException expected) {
        // refused, as it must be
      }
    }
  }

  @Test
  public void isBoundedInDepthSizeAndNumberLength() {
    String deep = "[".repeat(Json.MAX_DEPTH + 1) + "]".repeat(Json.MAX_DEPTH + 1);
    check(Json.parseObject(("{\"a\":" + deep + "}").getBytes(StandardCharsets.UTF_8)) == null, "too deep");
    String fine = "[".repeat(Json.MAX_DEPTH - 1) + "]".repeat(Json.MAX_DEPTH - 1);
    check(Json.parseObject(("{\"a\":" + fine + "}").getBytes(StandardCharsets.UTF_8)) != null, "deep within the limit");
    check(Json.parseObject(("{\"a\":1" + "0".repeat(Json.MAX_NUMBER_CHARS) + "}").getBytes(StandardCharsets.UTF_8)) == null, "number too long");
    check(Json.parseObject(new byte[Json.MAX_CHARS + 1]) == null, "text too long");
    check(Json.asInteger(Json.asObject(parse("{\"a\":1e999999999}")).get("a")).isEmpty(), "a huge exponent costs nothing and is no integer");
  }

  @Test
  public void parseObjectAnswersNullForNonObjectsAndBadUtf8() {
    check(Json.parseObject("[1]".getBytes(StandardCharsets.UTF_8)) == null, "array");
    check(Json.parseObject("<html></html>".getBytes(StandardCharsets.UTF_8)) == null, "html");
    check(Json.parseObject(new byte[] {'{', '"', (byte) 0xff, '"', ':', '1', '}'}) == null, "not UTF-8");
    check(Json.parseObject(new byte[0]) == null, "empty");
  }

  @Test
  public void aRepeatedNameKeepsTheLastValueAsJavaScriptDoes() {
    equal(0L, Json.asObject(parse("{\"code\":1,\"code\":0}")).get("code"), "last wins");
  }

  @Test
  public void booleansAndFractionsAreNeverIntegers() {
    check(Json.asInteger(Boolean.TRUE).isEmpty(), "true is not 1");
    check(Json.asInteger(new BigDecimal("1.5")).isEmpty(), "1.5");
    equal(1L, Json.asInteger(new BigDecimal("1.0")).getAsLong(), "1.0 is 1");
    check(Json.asInteger("1").isEmpty(), "a string is not a number");
  }

  @Test
  public void writesCompactJsonInOrderWithRawNonAscii() {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("app", "48213907");
    o.put("username", "li.wei");
    o.put("password", "pässwörd-密码");
    o.put("ttl", 600L);
    o.put("q", "a\"b\\\n\u0001");
    equal("{\"app\":\"48213907\",\"username\":\"li.wei\",\"password\":\"pässwörd-密码\",\"ttl\":600,\"q\":\"a\\\"b\\\\\\n\\u0001\"}", Json.write(o), "written");
    equal(o, parse(Json.write(o)), "round trip");
  }

  private static Object parse(String text) {
    try {
      return Json.parse(text);
    } catch (Json.ParseException e) {
      throw new AssertionError(e);
    }
  }
}
