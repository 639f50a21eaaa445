package nodeclients

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

const (
	baselineFile = "conformance-baseline.yml"
	conformance  = "node_modules/@modelcontextprotocol/conformance/dist/index.js"
	// The newest pre-release, the first with MCP 2026-07-28 (the npm
	// alias conformance-2026-07-28 in package.json).
	baselineModern    = "conformance-baseline-2026-07-28.yml"
	conformanceModern = "node_modules/conformance-2026-07-28/dist/index.js"
	// mustPassScenario may never be baselined: it must pass.
	mustPassScenario = "dns-rebinding-protection"
)

// baselineEntry matches "  - scenario   # reason" under "server:".
var baselineEntry = regexp.MustCompile(`^\s+-\s+([a-z0-9-]+)\s*(?:#\s*(.*))?$`)

// readBaseline returns the server scenarios the baseline expects to fail,
// each with its reason; an entry without a reason is an error.
func readBaseline(t *testing.T, baselineFile string) map[string]string {
	t.Helper()
	f, err := os.Open(baselineFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	section := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if !strings.HasPrefix(line, " ") {
			section = strings.TrimSuffix(strings.TrimSpace(line), ":")
			continue
		}
		m := baselineEntry.FindStringSubmatch(line)
		switch {
		case m == nil:
			t.Fatalf("%s:%d: want \"  - scenario  # reason\", got %q", baselineFile, n, line)
		case section != "server":
			t.Fatalf("%s:%d: entry outside \"server:\"", baselineFile, n)
		case strings.TrimSpace(m[2]) == "":
			t.Errorf("%s:%d: %s has no reason", baselineFile, n, m[1])
		}
		if _, dup := out[m[1]]; dup {
			t.Errorf("%s:%d: %s listed twice", baselineFile, n, m[1])
		}
		out[m[1]] = m[2]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

type check struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

// resultDir matches the suite's result directories: server-<scenario>-<ISO time with : and . as ->.
var resultDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$`)

// readResults returns each scenario's checks from the suite's output dir.
func readResults(t *testing.T, dir string) map[string][]check {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]check{}
	for _, e := range ents {
		m := resultDir.FindStringSubmatch(e.Name())
		if m == nil {
			t.Fatalf("unexpected entry %q in the conformance output", e.Name())
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name(), "checks.json"))
		if err != nil {
			t.Fatal(err)
		}
		var cs []check
		if err := json.Unmarshal(b, &cs); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		out[m[1]] = cs
	}
	return out
}

// failed reports whether a scenario failed the way the suite counts it: any
// FAILURE or WARNING check.
func failed(cs []check) (bool, string) {
	for _, c := range cs {
		if c.Status == "FAILURE" || c.Status == "WARNING" {
			return true, c.Status + " " + c.Name + ": " + c.ErrorMessage
		}
	}
	return false, ""
}

// TestConformance runs the official MCP conformance suite's server scenarios
// (the default "active" suite of its stable release, 0.1.16: MCP 2025-11-25
// and earlier) against a headless app with the token check off, and
// compares the outcome with conformance-baseline.yml: a listed scenario that
// passes, an unlisted one that fails, or a listed one the suite no longer
// has fails the test. dns-rebinding-protection must pass.
func TestConformance(t *testing.T) {
	t.Parallel()
	runConformance(t, conformance, baselineFile, 30, nil)
}

// TestConformanceModern runs the suite's newest pre-release (0.2.0-alpha.12)
// with --requirements 2026-07-28, the scenarios that revision requires
// (stateless requests with the version in _meta, input_required results,
// the tasks extension, header validation), against conformance-baseline-
// 2026-07-28.yml under the same rules; besides dns-rebinding-protection,
// tools-list and http-header-validation must pass.
func TestConformanceModern(t *testing.T) {
	t.Parallel()
	runConformance(t, conformanceModern, baselineModern, 45, []string{"tools-list", "http-header-validation"},
		"--requirements", "2026-07-28")
}

// runConformance runs the suite at script against a fresh app with args,
// compares it with baseline, and wants at least minScenarios run and
// mustPass (and mustPassScenario) passing.
func runConformance(t *testing.T, script, baseline string, minScenarios int, mustPass []string, args ...string) {
	requireNode(t)
	expected := readBaseline(t, baseline)
	for _, name := range append(mustPass, mustPassScenario) {
		if _, ok := expected[name]; ok {
			t.Fatalf("%s must pass; it may not be in %s", name, baseline)
		}
	}
	app := startApp(t, "", "--test-only-no-auth")
	if !strings.Contains(app.stderr.String(), "WARNING: MCP token check is off") {
		t.Errorf("no warning that the token check is off:\n%s", app.stderr.String())
	}
	outDir := t.TempDir()
	p := startNode(t, 5*time.Minute, nodeEnv(t),
		append([]string{script, "server", "--url", app.url, "--output-dir", outDir, "--expected-failures", baseline}, args...)...)
	var log strings.Builder
	for l := range p.lines {
		log.WriteString(l + "\n")
	}
	code := p.wait()

	results := readResults(t, outDir)
	var passed, failedNames []string
	for name, cs := range results {
		bad, why := failed(cs)
		reason, listed := expected[name]
		switch {
		case bad && !listed:
			t.Errorf("%s fails and is not in %s: %s", name, baseline, why)
		case !bad && listed:
			t.Errorf("%s passes now: remove it from %s (listed because: %s)", name, baseline, reason)
		}
		if bad {
			failedNames = append(failedNames, name)
		} else {
			passed = append(passed, name)
		}
	}
	for name := range expected {
		if _, ok := results[name]; !ok {
			t.Errorf("%s lists %s, which the suite did not run", baseline, name)
		}
	}
	if cs := results[mustPassScenario]; len(cs) < 2 || slices.ContainsFunc(cs, func(c check) bool { return c.Status != "SUCCESS" }) {
		t.Errorf("%s: want at least 2 checks, all SUCCESS; got %+v", mustPassScenario, cs)
	}
	for _, name := range mustPass {
		if cs := results[name]; len(cs) == 0 {
			t.Errorf("%s did not run", name)
		}
	}
	if len(results) < minScenarios {
		t.Errorf("the suite ran %d scenarios, want at least %d", len(results), minScenarios)
	}
	// The suite applies the same baseline itself: exit 0 means it agrees.
	if code != 0 && !t.Failed() {
		t.Errorf("conformance exited %d though every scenario matched the baseline:\n%s\nstderr:\n%s", code, log.String(), p.stderr.String())
	}
	slices.Sort(passed)
	slices.Sort(failedNames)
	t.Logf("conformance %s: %d scenarios; passed: %s; failed as expected: %d", script, len(results), strings.Join(passed, ", "), len(failedNames))
	if t.Failed() {
		t.Logf("conformance output:\n%s\nstderr:\n%s", log.String(), p.stderr.String())
	}
}
