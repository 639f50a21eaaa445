package packaging

import (
	"bytes"
	"debug/pe"
	"encoding/binary"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestWindowsExe checks the asktray.exe make windows built (named by
// $ASKTRAY_WINDOWS_EXE; make crosscheck, which CI runs after make windows,
// sets it): a 64-bit GUI-subsystem PE whose resources hold the icon, the
// version resource with FyneApp.toml's name and version, and a manifest.
// Running the exe is app/winetest's work, under Wine 10 (.ci/wine.sh).
func TestWindowsExe(t *testing.T) {
	path := os.Getenv("ASKTRAY_WINDOWS_EXE")
	if path == "" {
		t.Skip("ASKTRAY_WINDOWS_EXE is not set; make crosscheck sets it after make windows")
	}
	f, err := pe.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok || f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		t.Fatalf("not a 64-bit x86-64 PE: machine %#x", f.Machine)
	}
	if oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_GUI {
		t.Errorf("subsystem %d, want the GUI subsystem (%d): -H=windowsgui is missing", oh.Subsystem, pe.IMAGE_SUBSYSTEM_WINDOWS_GUI)
	}
	rsrc := f.Section(".rsrc")
	if rsrc == nil {
		t.Fatal("no .rsrc section: the .syso from packaging/winres.sh was not linked")
	}
	data, err := rsrc.Data()
	if err != nil {
		t.Fatal(err)
	}
	// The root of the resource tree (PE format, "The .rsrc Section"): a
	// 16-byte header whose last two uint16 count the named and the ID
	// entries, then 8-byte entries whose first uint32 is the type ID.
	if len(data) < 16 {
		t.Fatalf(".rsrc is %d bytes", len(data))
	}
	n := int(binary.LittleEndian.Uint16(data[12:])) + int(binary.LittleEndian.Uint16(data[14:]))
	types := map[uint32]bool{}
	for i := range n {
		if off := 16 + 8*i; off+8 <= len(data) {
			types[binary.LittleEndian.Uint32(data[off:])] = true
		}
	}
	for id, what := range map[uint32]string{3: "icon", 14: "icon group", 16: "version", 24: "manifest"} {
		if !types[id] {
			t.Errorf("no %s resource (type %d) among %v", what, id, types)
		}
	}
	meta, err := exec.Command("go", "run", "./appmeta", "-f", "../FyneApp.toml", "name", "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(meta))
	for _, s := range []string{"ProductName", want[0], "ProductVersion", want[1]} {
		if !bytes.Contains(data, utf16le(s)) {
			t.Errorf("the version resource lacks %q", s)
		}
	}
}

func utf16le(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}
