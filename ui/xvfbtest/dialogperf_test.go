package xvfbtest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkDialogPool measures window reuse side by side in one run: two
// asktray binaries on displays of their own, one with the window pool (the
// default) and one without (ASKTRAY_WINDOW_POOL=0), are asked in turn, so
// both see the same machine load. It reports the time from tools/call to
// the dialog window mapped (median, p95; the same xdotool polling as
// BenchmarkDesktop), RSS fresh, after the first dialog and every 25 up to
// ASKTRAY_SOAK_DIALOGS (200), each taken 3 s after the last dialog closed,
// next to a bare Fyne tray app, and the median of each phase of the time to
// the first frame from the app's "dialog shown" log lines. It asserts
// nothing about speed or size. Run it with
// go test -tags migrated_fynedo -run '^$' -bench DialogPool -benchtime 1x ./ui/xvfbtest/.
func BenchmarkDialogPool(b *testing.B) {
	n := 200
	if s := os.Getenv("ASKTRAY_SOAK_DIALOGS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	n = max(n/25*25, 25)
	runs := []*poolRun{{name: "pool on"}, {name: "pool off", env: "ASKTRAY_WINDOW_POOL=0"}}
	for _, r := range runs {
		r.d = newSession(b)
		if r.env != "" {
			r.d.env = append(r.d.env, r.env)
		}
		r.d.start(b, r.d.bin, "--data-dir", r.d.dataDir, "--addr", "127.0.0.1:0")
		r.s = r.d.client(b, "latency")
	}
	bare := startBareTray(b)
	time.Sleep(3 * time.Second)
	for _, r := range runs {
		r.rss = append(r.rss, rssMB(b, r.d.app.Process.Pid))
	}
	bareRSS := rssMB(b, bare)

	for i := range n {
		for _, r := range runs {
			r.lat = append(r.lat, r.dialog(b, i))
		}
		if i == 0 || (i+1)%25 == 0 {
			time.Sleep(3 * time.Second) // past the release 2 s after the last dialog closed
			for _, r := range runs {
				r.rss = append(r.rss, rssMB(b, r.d.app.Process.Pid))
			}
		}
	}

	reportPool(b, runs, n, bareRSS)
}

// reportPool prints BenchmarkDialogPool's tables and reports its figures.
func reportPool(b *testing.B, runs []*poolRun, n int, bareRSS float64) {
	fmt.Printf("time to dialog and RSS, %d dialogs each, asked in turn (machine load %s)\n", n, loadAvg())
	fmt.Printf("| | time to dialog p50 | p95 | RSS fresh | after 1 | after 25 | after %d | growth 25→%d |\n|---|---|---|---|---|---|---|---|\n", n, n)
	for _, r := range runs {
		p50, p95 := percentile(r.lat, 50), percentile(r.lat, 95)
		fmt.Printf("| asktray, %s | %.1f ms | %.1f ms | %.1f MB | %.1f MB | %.1f MB | %.1f MB | %+.1f MB |\n", r.name, p50, p95,
			r.rss[0], r.rss[1], r.rss[2], r.rss[len(r.rss)-1], r.rss[len(r.rss)-1]-r.rss[2])
		unit := strings.ReplaceAll(r.name, " ", "-")
		b.ReportMetric(p50, unit+"-p50-ms")
		b.ReportMetric(p95, unit+"-p95-ms")
		b.ReportMetric(r.rss[len(r.rss)-1], unit+"-rss-MB")
	}
	fmt.Printf("| bare Fyne tray app | | | %.1f MB | | | | |\n", bareRSS)
	b.ReportMetric(bareRSS, "bare-rss-MB")

	fmt.Printf("\nRSS every 25 dialogs (MB):\n| dialogs |")
	for _, r := range runs {
		fmt.Printf(" %s |", r.name)
	}
	fmt.Printf("\n|---|---|---|\n")
	for j := range runs[0].rss {
		fmt.Printf("| %d |", max(j*25-25, min(j, 1)))
		for _, r := range runs {
			fmt.Printf(" %.1f |", r.rss[j])
		}
		fmt.Println()
	}

	fmt.Printf("\ntime to first frame by phase, median ms (from the app's \"dialog shown\" log):\n")
	fmt.Printf("| | dialogs | queue | content | fit | window | show |\n|---|---|---|---|---|---|---|\n")
	for _, r := range runs {
		for _, reused := range []bool{false, true} {
			ph := r.phases(b, reused)
			if len(ph["show_ms"]) == 0 {
				continue
			}
			what := r.name + ", new window"
			if reused {
				what = r.name + ", reused window"
			}
			fmt.Printf("| %s | %d |", what, len(ph["show_ms"]))
			for _, k := range []string{"queue_ms", "content_ms", "fit_ms", "window_ms", "show_ms"} {
				fmt.Printf(" %.1f |", percentile(ph[k], 50))
			}
			fmt.Println()
		}
	}
}

// poolRun is one app of BenchmarkDialogPool and what was measured on it.
type poolRun struct {
	name, env string
	d         *desktop
	s         *sdk.ClientSession
	lat       []float64 // ms
	rss       []float64 // MB: fresh, after the first dialog, then every 25
}

// dialog asks one question, waits for its window, cancels it and waits
// for the window to go; it returns the time to the window in ms.
func (r *poolRun) dialog(t testing.TB, i int) float64 {
	t.Helper()
	const title = "latency asks"
	start := time.Now()
	res, err := r.s.CallTool(context.Background(), &sdk.CallToolParams{Name: "ask_text",
		Arguments: map[string]any{"question": fmt.Sprintf("Question %d?", i), "wait": false}})
	if err != nil || res.IsError {
		t.Fatalf("ask: %v", err)
	}
	r.d.waitMapped(t, title, 20*time.Second)
	ms := float64(time.Since(start).Microseconds()) / 1000
	out, _ := r.d.cli("pending", "--json")
	if _, err := r.d.cli("answer", between(out, `"id": "`, `"`), "--cancel"); err != nil {
		t.Fatal(err)
	}
	for !r.d.windowGone(title) {
		time.Sleep(5 * time.Millisecond)
	}
	return ms
}

// phases reads the app's "dialog shown" lines for new or reused windows:
// each phase's values in ms.
func (r *poolRun) phases(t testing.TB, reused bool) map[string][]float64 {
	f, err := os.Open(filepath.Join(r.d.dataDir, "log", "asktray.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if !strings.Contains(l, `msg="dialog shown"`) || strings.Contains(l, "reused_window="+strconv.FormatBool(!reused)) {
			continue
		}
		for kv := range strings.FieldsSeq(l) {
			k, v, _ := strings.Cut(kv, "=")
			if x, err := strconv.ParseFloat(v, 64); err == nil && strings.HasSuffix(k, "_ms") {
				out[k] = append(out[k], x)
			}
		}
	}
	return out
}

// startBareTray builds and starts the bare Fyne tray app on a session of
// its own and returns its pid; it is stopped when the benchmark ends.
func startBareTray(t testing.TB) int {
	t.Helper()
	d := newSession(t)
	path := filepath.Join(t.TempDir(), "baretray")
	out, err := exec.Command("go", "build", "-tags", "migrated_fynedo", "-o", path, "github.com/asktray/asktray/ui/xvfbtest/internal/baretray").CombinedOutput()
	if err != nil {
		t.Fatalf("build baretray: %v\n%s", err, out)
	}
	bt := exec.Command(path)
	bt.Env = d.env
	if err := bt.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bt.Process.Kill(); _ = bt.Wait() })
	return bt.Process.Pid
}

// rssMB returns a process's resident set size in MB.
func rssMB(t testing.TB, pid int) float64 { return procMB(t, pid, "status", "VmRSS:") }

// procMB returns the figure on the line of /proc/PID/file that starts
// with field, given there in kB, in MB.
func procMB(t testing.TB, pid int, file, field string) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file))
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field); ok {
			kb, _ := strconv.ParseFloat(strings.Fields(v)[0], 64)
			return kb / 1024
		}
	}
	t.Fatalf("no %s in /proc/%d/%s", field, pid, file)
	return 0
}

// percentile returns the p-th percentile (nearest rank) of xs.
func percentile(xs []float64, p int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := max((len(s)*p+99)/100-1, 0)
	return s[i]
}

// loadAvg returns the 1, 5 and 15 minute load averages.
func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
