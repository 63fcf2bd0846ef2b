package cardkey.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The machine code of a device for one program (docs/protocol.md, "The machine code"): what to send
 * as {@code machineId}. The same in all five official clients, checked against
 * {@code sdk/vectors/signing-vectors.json} ({@code machine_code}): the raw id trimmed (spaces, tabs,
 * CR, LF) and ASCII-lowercased, then the first 32 characters of the lowercase hex SHA-256 of UTF-8
 * {@code programId + ":" + rawId}.
 *
 * <p>Sources: Windows {@code HKLM\SOFTWARE\Microsoft\Cryptography\MachineGuid} (then the SMBIOS
 * UUID), Linux {@code /etc/machine-id} (then {@code /var/lib/dbus/machine-id}), macOS
 * {@code IOPlatformUUID}. Stable across reboots, different for every program, no network, no
 * administrator rights.
 */
public final class MachineCode {
  private MachineCode() {}

  /** Firmware that fills the SMBIOS UUID with zeros or FFs gives every device the same id. */
  private static final Pattern PLACEHOLDER = Pattern.compile("^[0-]+$|^[f-]+$");
  private static final Pattern REG_GUID = Pattern.compile("MachineGuid\\s+REG_SZ\\s+(\\S+)", Pattern.CASE_INSENSITIVE);
  private static final Pattern PLATFORM_UUID = Pattern.compile("\"IOPlatformUUID\"\\s*=\\s*\"([^\"]+)\"");

  /**
   * This device's machine code for {@code programId}.
   *
   * @throws IllegalArgumentException for an empty program ID
   * @throws IllegalStateException when the device has no stable id (a container without
   *     /etc/machine-id, for instance)
   */
  public static String machineCode(String programId) {
    if (programId == null || programId.isEmpty()) throw new IllegalArgumentException("programId is required");
    return from(programId, rawId());
  }

  /** The machine code of {@code rawId} for {@code programId}. Pure: it reads nothing. */
  public static String from(String programId, String rawId) {
    if (programId == null || programId.isEmpty()) throw new IllegalArgumentException("programId is required");
    String id = normalize(rawId == null ? "" : rawId);
    if (id.isEmpty()) throw new IllegalArgumentException("rawId is empty");
    return Signing.sha256Hex((programId + ":" + id).getBytes(StandardCharsets.UTF_8)).substring(0, 32);
  }

  /** The raw id {@link #machineCode} hashes (trimmed, lowercase). */
  public static String rawId() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    List<String> tried = new ArrayList<>();
    for (Source source : os.startsWith("windows") ? windows() : os.contains("mac") ? macos() : unix()) {
      tried.add(source.name());
      String id;
      try {
        id = normalize(source.read());
      } catch (IOException | RuntimeException e) {
        id = "";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        id = "";
      }
      if (!id.isEmpty() && !PLACEHOLDER.matcher(id).matches()) return id;
    }
    throw new IllegalStateException("machineCode: no stable machine id on this device (tried " + String.join(", ", tried) + ")");
  }

  static String normalize(String raw) {
    int start = 0;
    int end = raw.length();
    while (start < end && " \t\r\n".indexOf(raw.charAt(start)) >= 0) start++;
    while (end > start && " \t\r\n".indexOf(raw.charAt(end - 1)) >= 0) end--;
    StringBuilder out = new StringBuilder(end - start);
    for (int i = start; i < end; i++) {
      char c = raw.charAt(i);
      out.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
    }
    return out.toString();
  }

  private interface Reader {
    String read() throws IOException, InterruptedException;
  }

  private record Source(String name, Reader reader) {
    String read() throws IOException, InterruptedException {
      return reader.read();
    }
  }

  private static List<Source> windows() {
    return List.of(
        // /reg:64: a 32-bit JVM would otherwise read WOW6432Node, which has no MachineGuid.
        new Source("HKLM\\SOFTWARE\\Microsoft\\Cryptography\\MachineGuid",
            () -> group(REG_GUID, run("reg", "query", "HKLM\\SOFTWARE\\Microsoft\\Cryptography", "/v", "MachineGuid", "/reg:64"))),
        new Source("SMBIOS UUID",
            () -> run("powershell.exe", "-NoProfile", "-NonInteractive", "-Command", "(Get-CimInstance -ClassName Win32_ComputerSystemProduct).UUID")));
  }

  private static List<Source> macos() {
    return List.of(new Source("IOPlatformUUID", () -> group(PLATFORM_UUID, run("/usr/sbin/ioreg", "-rd1", "-c", "IOPlatformExpertDevice"))));
  }

  /** Linux, and other systems with systemd's or D-Bus's id. */
  private static List<Source> unix() {
    return List.of(file("/etc/machine-id"), file("/var/lib/dbus/machine-id"));
  }

  private static Source file(String path) {
    return new Source(path, () -> Files.readString(Path.of(path), StandardCharsets.UTF_8));
  }

  private static String group(Pattern pattern, String text) {
    Matcher m = pattern.matcher(text);
    return m.find() ? m.group(1) : "";
  }

  private static String run(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(false).redirectError(ProcessBuilder.Redirect.DISCARD)
        .redirectInput(ProcessBuilder.Redirect.PIPE).start();
    process.getOutputStream().close();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = process.getInputStream()) {
      in.transferTo(out);
    }
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException(command[0] + " did not finish");
    }
    if (process.exitValue() != 0) throw new IOException(command[0] + " exited with " + process.exitValue());
    return out.toString(StandardCharsets.UTF_8);
  }
}
