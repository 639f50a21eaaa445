package toolinput

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func renderT(t *testing.T, tool, raw string) Rendered {
	t.Helper()
	if _, err := Decode(json.RawMessage(raw)); err != nil {
		t.Fatal(err)
	}
	return RenderJSON(tool, json.RawMessage(raw))
}

// A key the Bash renderer does not know is shown under the command, not
// dropped: approving `ls` must not silently approve a sandbox escape.
func TestHiddenKeyShown(t *testing.T) {
	t.Parallel()
	r := renderT(t, "Bash", `{"command":"ls","dangerouslyDisableSandbox":true,"description":"List files"}`)
	for _, want := range []string{"```sh\nls\n```", "**Also in this request:**", "- **⚠ `dangerouslyDisableSandbox`: `true`** (changes what runs)"} {
		if !strings.Contains(r.Details, want) {
			t.Errorf("details lack %q:\n%s", want, r.Details)
		}
	}
	if r.Reason != "List files" || strings.Contains(r.Details, "description") {
		t.Errorf("description: reason %q, details\n%s", r.Reason, r.Details)
	}
	// Nothing to add: no list.
	if r := renderT(t, "Bash", `{"command":"ls"}`); r.Details != "```sh\nls\n```" {
		t.Errorf("plain command: %q", r.Details)
	}
}

// A known key of an unexpected type is not swallowed by its renderer.
func TestWrongTypedKnownKeyShown(t *testing.T) {
	t.Parallel()
	r := renderT(t, "Bash", `{"command":"sleep 9","timeout":"forever","run_in_background":"yes"}`)
	for _, want := range []string{"- `run_in_background`: `\"yes\"`", "- `timeout`: `\"forever\"`"} {
		if !strings.Contains(r.Details, want) {
			t.Errorf("details lack %q:\n%s", want, r.Details)
		}
	}
	r = renderT(t, "Edit", `{"file_path":"a.go","old_string":"x","new_string":"y","replace_all":1}`)
	if strings.Contains(r.Details, "every occurrence") || !strings.Contains(r.Details, "- `replace_all`: `1`") {
		t.Errorf("replace_all 1:\n%s", r.Details)
	}
}

// Long and multi-line values are folded into their own block, in full.
func TestLongValueFoldedNotDropped(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 100) + "END"
	raw, _ := json.Marshal(map[string]any{"command": "make", "env": long, "opts": map[string]any{"a": []int{1, 2}, "b": strings.Repeat("two\nlines ", 12)}, "short": map[string]any{"b": "two\nlines"}})
	r := renderT(t, "Bash", string(raw))
	if !strings.Contains(r.Details, "`env` (text, 503 characters):\n\n```\n"+long+"\n```") {
		t.Errorf("long text not folded in full:\n%s", r.Details)
	}
	if !strings.Contains(r.Details, "`opts`:\n\n```json\n{\n  \"a\": [\n    1,") || !strings.Contains(r.Details, "- `short`: `{\"b\":\"two\\nlines\"}`") {
		t.Errorf("object not folded as JSON:\n%s", r.Details)
	}
}

// Every key of every edit of a MultiEdit is shown.
func TestMultiEditItemKeysShown(t *testing.T) {
	t.Parallel()
	r := renderT(t, "MultiEdit", `{"file_path":"go.mod","edits":[{"old_string":"a","new_string":"b","replace_all":true},{"old_string":"c","new_string":"d","expected_replacements":3}, 7]}`)
	for _, want := range []string{"**File:** `go.mod`, 3 edits", "Edit 1 (every occurrence):", "```diff\n- c\n+ d\n```", "**Also in edit 2:**\n\n- `expected_replacements`: `3`", "Edit 3 is not an object:\n\n```json\n7\n```"} {
		if !strings.Contains(r.Details, want) {
			t.Errorf("details lack %q:\n%s", want, r.Details)
		}
	}
}

// A description too long for the reason is listed in full instead of cut.
func TestLongDescriptionListed(t *testing.T) {
	t.Parallel()
	desc := strings.Repeat("d", MaxReason+1)
	raw, _ := json.Marshal(map[string]any{"command": "ls", "description": desc})
	r := renderT(t, "Bash", string(raw))
	if r.Reason != "" || !strings.Contains(r.Details, desc) {
		t.Errorf("reason %d characters; description in details: %v", len(r.Reason), strings.Contains(r.Details, desc))
	}
}

// Other tools are shown as JSON, every key included; one too big for that is
// shown as the key list, still naming every key, within MaxDetails.
func TestOtherToolsShowEveryKey(t *testing.T) {
	t.Parallel()
	r := renderT(t, "mcp__github__create_issue", `{"title":"x <y> & z","owner":"ada"}`)
	if r.Details != "```json\n{\n  \"title\": \"x <y> & z\",\n  \"owner\": \"ada\"\n}\n```" {
		t.Errorf("small input, in the agent's order: %q", r.Details)
	}
	if r := Render("mcp__github__create_issue", map[string]any{"title": "t", "owner": "ada"}); r.Details != "```json\n{\n  \"owner\": \"ada\",\n  \"title\": \"t\"\n}\n```" {
		t.Errorf("small input from a map: %q", r.Details)
	}
	in := map[string]any{}
	for i := range 40 {
		in[fmt.Sprintf("k%02d", i)] = strings.Repeat("v", 5000)
	}
	r = Render("mcp__x__y", in)
	if n := utf8.RuneCountInString(r.Details); n > MaxDetails {
		t.Fatalf("details %d characters", n)
	}
	for k := range in {
		if !strings.Contains(r.Details, "`"+k+"`") {
			t.Errorf("key %s not shown", k)
		}
	}
}

// However long the rendered part, the keys it did not show stay in.
func TestHiddenKeyKeptWhenTooLong(t *testing.T) {
	t.Parallel()
	edits := make([]any, 300)
	for i := range edits {
		edits[i] = map[string]any{"old_string": strings.Repeat("o", 3000), "new_string": strings.Repeat("n", 3000)}
	}
	in := map[string]any{"file_path": "big.txt", "edits": edits, "zz_hidden": "yes"}
	r := Render("MultiEdit", in)
	if n := utf8.RuneCountInString(r.Details); n > MaxDetails {
		t.Fatalf("details %d characters", n)
	}
	if !strings.Contains(r.Details, "- `zz_hidden`: `\"yes\"`") || !strings.Contains(r.Details, "more parts of the request not shown") {
		t.Errorf("tail of details:\n%s", r.Details[len(r.Details)-400:])
	}
	if strings.Count(r.Details, "```")%2 != 0 {
		t.Errorf("a code fence is left open")
	}
	r = renderT(t, "Write", fmt.Sprintf(`{"file_path":"f","content":%q,"mode":"0777"}`, strings.Repeat("c", 3*MaxDetails)))
	if !strings.Contains(r.Details, "- `mode`: `\"0777\"`") || !strings.Contains(r.Details, "more characters not shown") {
		t.Errorf("write: hidden key or cut note missing")
	}
}

// The fingerprint covers the whole input: a difference in a key the
// renderer does not show changes it, the form of the JSON does not.
func TestFingerprint(t *testing.T) {
	t.Parallel()
	base := Fingerprint("Bash", json.RawMessage(`{"command":"ls","dangerouslyDisableSandbox":false}`))
	if base == Fingerprint("Bash", json.RawMessage(`{"command":"ls","dangerouslyDisableSandbox":true}`)) {
		t.Error("a hidden key's value does not change the fingerprint")
	}
	if base == Fingerprint("Bash", json.RawMessage(`{"command":"ls"}`)) {
		t.Error("a missing hidden key does not change the fingerprint")
	}
	if base != Fingerprint("Bash", json.RawMessage(" {\"dangerouslyDisableSandbox\": false,\n \"command\":\"ls\"}")) {
		t.Error("key order or spacing changes the fingerprint")
	}
	if base == Fingerprint("Shell", json.RawMessage(`{"command":"ls","dangerouslyDisableSandbox":false}`)) {
		t.Error("the tool's name does not change the fingerprint")
	}
	if Fingerprint("Bash", json.RawMessage(`{"n":1.0}`)) == Fingerprint("Bash", json.RawMessage(`{"n":1}`)) {
		t.Error("numbers are not kept as written")
	}
}

// Markdown in a tool's input cannot break out of the block that shows it.
func TestFenceAndCodeSpan(t *testing.T) {
	t.Parallel()
	if got := fence("md", "a\n```\nb", MaxShown); got != "````md\na\n```\nb\n````" {
		t.Errorf("fence: %q", got)
	}
	if got := codeSpan("a`b"); got != "``a`b``" {
		t.Errorf("codeSpan: %q", got)
	}
	if got := codeSpan("`x"); got != "`` `x ``" {
		t.Errorf("codeSpan edge: %q", got)
	}
	long := strings.Repeat("x", MaxShown+10)
	if got := fence("", long, MaxShown); !strings.Contains(got, "(10 more characters not shown)") || strings.Count(got, "x") != MaxShown {
		t.Errorf("long fence not cut: %d x", strings.Count(got, "x"))
	}
}

func TestRenderJSONNotAnObject(t *testing.T) {
	t.Parallel()
	if r := RenderJSON("Bash", json.RawMessage(`"rm -rf /"`)); r.Details != "```\n\"rm -rf /\"\n```" {
		t.Errorf("string input: %q", r.Details)
	}
}

// A multi-line command says how many lines it has, so that a first line
// followed by many others does not pass for the whole command.
func TestBashLineCount(t *testing.T) {
	t.Parallel()
	r := renderT(t, "Bash", `{"command":"ls\n\n\n\nrm -rf ~"}`)
	if !strings.Contains(r.Details, "A command of 5 lines.") {
		t.Fatalf("details %q", r.Details)
	}
	if r := renderT(t, "Bash", `{"command":"ls\n"}`); strings.Contains(r.Details, "lines") {
		t.Fatalf("a one-line command: %q", r.Details)
	}
}

// A duration is said in human units, and what changes what a command does
// (a force, a production target) and the input keys that do (a sandbox
// escape) are set apart.
func TestReadableBashRequest(t *testing.T) {
	t.Parallel()
	r := renderT(t, "Bash", `{"command":"git push --force origin release && kubectl -n prod-eu-west-1 rollout restart deploy/api","timeout":600000,"dangerouslyDisableSandbox":true}`)
	for _, want := range []string{"Timeout: 10 min", "**⚠ Changes what runs:** `--force`, `prod-eu-west-1`", "- **⚠ `dangerouslyDisableSandbox`: `true`** (changes what runs)"} {
		if !strings.Contains(r.Details, want) {
			t.Errorf("details lack %q:\n%s", want, r.Details)
		}
	}
	if strings.Contains(r.Details, "600000") {
		t.Errorf("the timeout in ms:\n%s", r.Details)
	}
	if r := renderT(t, "Bash", `{"command":"go test ./...","dangerouslyDisableSandbox":false}`); strings.Contains(r.Details, "⚠") {
		t.Errorf("nothing to set apart:\n%s", r.Details)
	}
}

func TestMillis(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"600000": "10 min", "90000": "90 s", "5400000": "1 h 30 min", "7200000": "2 h",
		"250": "250 ms", "1500": "1500 ms", "45000": "45 s", "150000": "2 min 30 s", "1.5": "1.5 ms"} {
		if got := Millis(in); got != want {
			t.Errorf("Millis(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestTitle(t *testing.T) {
	t.Parallel()
	if got := Title("Bash"); got != "Run a shell command" {
		t.Errorf("Title(Bash) = %q", got)
	}
	if got := Title("mcp__github__create_issue"); got != "" {
		t.Errorf("an unknown tool's title %q", got)
	}
}
