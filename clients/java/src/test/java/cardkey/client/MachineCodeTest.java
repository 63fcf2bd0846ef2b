package cardkey.client;

import static cardkey.client.Assert.check;
import static cardkey.client.Assert.equal;
import static cardkey.client.Assert.raises;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** The machine-code helper against the shared vectors, and on Linux the real device id. */
public final class MachineCodeTest {
  @Test
  public void matchesEverySharedVector() throws Exception {
    var cases = Vectors.list(Vectors.object(Vectors.all(), "machine_code").get("cases"));
    check(!cases.isEmpty(), "machine_code vectors");
    for (Map<String, Object> v : cases) {
      equal(Vectors.text(v, "code"), MachineCode.from(Vectors.text(v, "program_id"), Vectors.text(v, "raw_id")), Vectors.text(v, "name"));
    }
  }

  @Test
  public void differsPerProgramAndIs32Hex() {
    String code = MachineCode.from("48213907", "abc");
    check(code.matches("[0-9a-f]{32}"), "32 lowercase hex: " + code);
    check(!code.equals(MachineCode.from("48213908", "abc")), "another program, another code");
  }

  @Test
  public void refusesAnEmptyProgramOrRawId() {
    raises(IllegalArgumentException.class, () -> MachineCode.from("", "abc"), "empty program ID");
    raises(IllegalArgumentException.class, () -> MachineCode.from("48213907", " \n"), "empty raw ID");
    raises(IllegalArgumentException.class, () -> MachineCode.machineCode(""), "machineCode with an empty program ID");
  }

  @Test
  public void onLinuxTheSameCodeTwiceAndTheHashOfMachineId() {
    String id = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux") ? linuxId() : null;
    if (id == null) throw new TestRunner.Skipped("not Linux, or no machine-id file");
    String first = MachineCode.machineCode("48213907");
    equal(first, MachineCode.machineCode("48213907"), "the same code twice");
    equal(MachineCode.from("48213907", id), first, "the hash of the machine-id file");
    equal(id.toLowerCase(Locale.ROOT), MachineCode.rawId(), "the raw id");
    check(!first.equals(MachineCode.machineCode("10000001")), "another program, another code");
  }

  /** The first non-empty Linux id file, as machineCode reads it, or null (a bare container). */
  private static String linuxId() {
    for (String path : new String[] {"/etc/machine-id", "/var/lib/dbus/machine-id"}) {
      try {
        String id = Files.readString(Path.of(path), StandardCharsets.UTF_8).strip();
        if (!id.isEmpty()) return id;
      } catch (IOException e) {
        // absent: try the next one
      }
    }
    return null;
  }
}
