package cardkey

import (
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestVectorsMachineCode(t *testing.T) {
	cases := loadVectors(t).MachineCode.Cases
	if len(cases) == 0 {
		t.Fatal("no machine_code vectors")
	}
	for _, v := range cases {
		got, err := MachineCodeFrom(v.ProgramID, v.RawID)
		if err != nil || got != v.Code {
			t.Errorf("%s: %q, %v; want %s", v.Name, got, err, v.Code)
		}
	}
}

func TestMachineCodeDiffersPerProgram(t *testing.T) {
	a, _ := MachineCodeFrom("48213907", "abc")
	b, _ := MachineCodeFrom("48213908", "abc")
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(a) || a == b {
		t.Fatalf("codes %q and %q", a, b)
	}
}

func TestMachineCodeRefusesEmptyIDs(t *testing.T) {
	if _, err := MachineCodeFrom("", "abc"); err == nil {
		t.Error("an empty program ID was accepted")
	}
	if _, err := MachineCodeFrom("48213907", " \n"); err == nil {
		t.Error("an empty raw ID was accepted")
	}
	if _, err := MachineCode(""); err == nil {
		t.Error("MachineCode accepted an empty program ID")
	}
}

// The first non-empty Linux id file, as MachineCode reads it, or "" (a bare container).
func linuxMachineID() string {
	for _, path := range []string{"/etc/machine-id", "/var/lib/dbus/machine-id"} {
		if raw, err := os.ReadFile(path); err == nil {
			if id := strings.TrimSpace(string(raw)); id != "" {
				return id
			}
		}
	}
	return ""
}

func TestMachineCodeOnLinux(t *testing.T) {
	id := ""
	if runtime.GOOS == "linux" {
		id = linuxMachineID()
	}
	if id == "" {
		t.Skip("not Linux, or no machine-id file")
	}
	first, err := MachineCode("48213907")
	if err != nil {
		t.Fatal(err)
	}
	second, _ := MachineCode("48213907")
	want, _ := MachineCodeFrom("48213907", id)
	other, _ := MachineCode("10000001")
	if first != second || first != want || other == first {
		t.Fatalf("codes %s, %s, want %s; another program %s", first, second, want, other)
	}
	if raw, _ := RawMachineID(); raw != strings.ToLower(id) {
		t.Fatalf("raw id %q, want %q", raw, id)
	}
}
