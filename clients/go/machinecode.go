package cardkey

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// MachineCodeFrom is the machine code of rawID for programID (docs/protocol.md, "The machine
// code"), the same in all five official clients and checked against
// sdk/vectors/signing-vectors.json (machine_code): rawID trimmed (spaces, tabs, CR, LF) and
// ASCII-lowercased, then the first 32 characters of the lowercase hex SHA-256 of
// programID + ":" + rawID. Pure: it reads nothing.
func MachineCodeFrom(programID, rawID string) (string, error) {
	if programID == "" {
		return "", errors.New("cardkey: MachineCode needs a program ID")
	}
	id := normalizeRawID(rawID)
	if id == "" {
		return "", errors.New("cardkey: the raw machine ID is empty")
	}
	sum := sha256.Sum256([]byte(programID + ":" + id))
	return hex.EncodeToString(sum[:])[:32], nil
}

// MachineCode is this device's machine code for programID: what to send as the machine ID. Stable
// across reboots (it only reads ids the system keeps), different for every program, no network,
// no administrator rights. Sources: Windows HKLM\SOFTWARE\Microsoft\Cryptography\MachineGuid
// (then the SMBIOS UUID), Linux /etc/machine-id (then /var/lib/dbus/machine-id), macOS
// IOPlatformUUID. An error when the device has none of them (a container without
// /etc/machine-id, for instance).
func MachineCode(programID string) (string, error) {
	if programID == "" {
		return "", errors.New("cardkey: MachineCode needs a program ID")
	}
	id, err := RawMachineID()
	if err != nil {
		return "", err
	}
	return MachineCodeFrom(programID, id)
}

// RawMachineID is the id MachineCode hashes, as the system keeps it (trimmed, lowercase).
func RawMachineID() (string, error) {
	sources := machineIDSources(runtime.GOOS)
	names := make([]string, 0, len(sources))
	for _, source := range sources {
		names = append(names, source.name)
		raw, err := source.read()
		if err != nil {
			continue
		}
		if id := normalizeRawID(raw); id != "" && !placeholderID.MatchString(id) {
			return id, nil
		}
	}
	return "", errors.New("cardkey: no stable machine ID on this device (tried " + strings.Join(names, ", ") + ")")
}

// Firmware that fills the SMBIOS UUID with zeros or FFs gives every device the same id.
var placeholderID = regexp.MustCompile(`^[0-]+$|^[f-]+$`)

func normalizeRawID(raw string) string {
	id := []byte(strings.Trim(raw, " \t\r\n"))
	for i, c := range id {
		if c >= 'A' && c <= 'Z' {
			id[i] = c + ('a' - 'A')
		}
	}
	return string(id)
}

type machineIDSource struct {
	name string
	read func() (string, error)
}

func runCommand(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	return string(out), err
}

func machineIDFile(path string) machineIDSource {
	return machineIDSource{name: path, read: func() (string, error) {
		raw, err := os.ReadFile(path)
		return string(raw), err
	}}
}

var (
	regGUID      = regexp.MustCompile(`(?i)MachineGuid\s+REG_SZ\s+(\S+)`)
	platformUUID = regexp.MustCompile(`"IOPlatformUUID"\s*=\s*"([^"]+)"`)
)

func firstGroup(re *regexp.Regexp, out string, err error) (string, error) {
	if err != nil {
		return "", err
	}
	if m := re.FindStringSubmatch(out); m != nil {
		return m[1], nil
	}
	return "", errors.New("not found")
}

func machineIDSources(goos string) []machineIDSource {
	switch goos {
	case "windows":
		return []machineIDSource{
			{name: `HKLM\SOFTWARE\Microsoft\Cryptography\MachineGuid`, read: func() (string, error) {
				// /reg:64: a 32-bit program would otherwise read WOW6432Node, which has no MachineGuid.
				out, err := runCommand("reg", "query", `HKLM\SOFTWARE\Microsoft\Cryptography`, "/v", "MachineGuid", "/reg:64")
				return firstGroup(regGUID, out, err)
			}},
			{name: "SMBIOS UUID", read: func() (string, error) {
				return runCommand("powershell.exe", "-NoProfile", "-NonInteractive", "-Command",
					"(Get-CimInstance -ClassName Win32_ComputerSystemProduct).UUID")
			}},
		}
	case "darwin":
		return []machineIDSource{{name: "IOPlatformUUID", read: func() (string, error) {
			out, err := runCommand("/usr/sbin/ioreg", "-rd1", "-c", "IOPlatformExpertDevice")
			return firstGroup(platformUUID, out, err)
		}}}
	default: // Linux, and other systems with systemd's or D-Bus's id
		return []machineIDSource{machineIDFile("/etc/machine-id"), machineIDFile("/var/lib/dbus/machine-id")}
	}
}
