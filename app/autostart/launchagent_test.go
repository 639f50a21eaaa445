package autostart

import (
	"encoding/xml"
	"slices"
	"strings"
	"testing"
)

// TestLaunchAgentPlist: the plist parses as XML and gives launchd the label,
// the program and each argument verbatim (XML specials and spaces kept) and
// RunAtLoad; relative executables and control characters are refused.
func TestLaunchAgentPlist(t *testing.T) {
	exe := "/Applications/Asktray.app/Contents/MacOS/asktray"
	args := []string{BackgroundFlag, "--data-dir", "/Users/a b/Library/Application Support/<Ask & \"tray\">"}
	s, err := LaunchAgentPlist(exe, args)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Dict struct {
			Items []struct {
				XMLName xml.Name
				Text    string   `xml:",chardata"`
				Strings []string `xml:"string"`
			} `xml:",any"`
		} `xml:"dict"`
	}
	if err := xml.Unmarshal([]byte(s), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, s)
	}
	got := map[string]int{}
	items := doc.Dict.Items
	for i := 0; i+1 < len(items); i += 2 {
		if items[i].XMLName.Local != "key" {
			t.Fatalf("item %d is <%s>, want <key>", i, items[i].XMLName.Local)
		}
		k, v := items[i].Text, items[i+1]
		got[k]++
		switch k {
		case "Label":
			if v.Text != "app.asktray.desktop" {
				t.Errorf("Label %q", v.Text)
			}
		case "ProgramArguments":
			if want := append([]string{exe}, args...); !slices.Equal(v.Strings, want) {
				t.Errorf("ProgramArguments %q, want %q", v.Strings, want)
			}
		case "RunAtLoad":
			if v.XMLName.Local != "true" {
				t.Errorf("RunAtLoad <%s/>", v.XMLName.Local)
			}
		}
	}
	for _, k := range []string{"Label", "ProgramArguments", "RunAtLoad"} {
		if got[k] != 1 {
			t.Errorf("key %s appears %d times in\n%s", k, got[k], s)
		}
	}
	if !strings.HasPrefix(s, `<?xml version="1.0" encoding="UTF-8"?>`+"\n<!DOCTYPE plist") {
		t.Errorf("no plist header:\n%s", s)
	}
	if _, err := LaunchAgentPlist("asktray", nil); err == nil || !strings.Contains(err.Error(), "absolute") {
		t.Errorf("relative exe: %v", err)
	}
	if _, err := LaunchAgentPlist(exe, []string{"a\x01"}); err == nil || !strings.Contains(err.Error(), "control character") {
		t.Errorf("control character: %v", err)
	}
}
