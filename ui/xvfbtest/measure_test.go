package xvfbtest

import (
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

// BenchmarkDesktop measures and reports the desktop figures: time from a
// tools/call to the dialog window being mapped (p50, p95 over 20), and idle
// RSS and CPU over 60 s next to a bare Fyne tray app built the same way. It
// asserts nothing about speed. Run it with make measure-desktop
// (-bench Desktop -benchtime 1x); ASKTRAY_MEASURE_IDLE shortens the idle span.
func BenchmarkDesktop(b *testing.B) {
	var t testing.TB = b
	idle := 60 * time.Second
	if s := os.Getenv("ASKTRAY_MEASURE_IDLE"); s != "" {
		idle, _ = time.ParseDuration(s)
	}
	d := newDesktop(t)
	s := d.client(t, "latency")
	var lat []time.Duration
	for i := range 20 {
		title := "latency asks"
		start := time.Now()
		r, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "ask_text", Arguments: map[string]any{"question": fmt.Sprintf("Question %d?", i), "wait": false}})
		if err != nil || r.IsError {
			t.Fatalf("ask: %v", err)
		}
		d.waitWindow(t, title, 20*time.Second)
		lat = append(lat, time.Since(start))
		out, _ := d.cli("pending", "--json")
		id := between(out, `"id": "`, `"`)
		if _, err := d.cli("answer", id, "--cancel"); err != nil {
			t.Fatal(err)
		}
		for !d.windowGone(title) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	slices.Sort(lat)
	fmt.Printf("dialog mapped after tools/call (20 questions, xdotool polling ~5 ms): p50 %v, p95 %v, min %v, max %v\n",
		lat[9].Round(time.Millisecond), lat[18].Round(time.Millisecond), lat[0].Round(time.Millisecond), lat[19].Round(time.Millisecond))
	b.ReportMetric(float64(lat[9].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(lat[18].Milliseconds()), "p95-ms")

	rss, cpu := idleCost(t, d.app.Process.Pid, idle)
	b.ReportMetric(rss, "asktray-rss-MB")
	b.ReportMetric(cpu, "asktray-cpu-%")
	fmt.Printf("asktray idle with tray for %v: RSS %.1f MB, CPU %.2f%% of one core\n", idle, rss, cpu)

	bare := exec.Command("go", "build", "-tags", "migrated_fynedo", "-o", filepath.Join(t.TempDir(), "baretray"), "github.com/asktray/asktray/ui/xvfbtest/internal/baretray")
	if out, err := bare.CombinedOutput(); err != nil {
		t.Fatalf("build baretray: %v\n%s", err, out)
	}
	bt := exec.Command(bare.Args[len(bare.Args)-2])
	bt.Env = d.env
	if err := bt.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = bt.Process.Kill(); _ = bt.Wait() }()
	time.Sleep(3 * time.Second)
	rss, cpu = idleCost(t, bt.Process.Pid, idle)
	fmt.Printf("bare Fyne tray app idle for %v:  RSS %.1f MB, CPU %.2f%% of one core\n", idle, rss, cpu)
	b.ReportMetric(rss, "bare-rss-MB")
	b.ReportMetric(cpu, "bare-cpu-%")
}

func between(s, a, b string) string {
	_, rest, _ := strings.Cut(s, a)
	v, _, _ := strings.Cut(rest, b)
	return v
}

// idleCost samples a process's CPU time over d and returns its RSS at the end (MB) and its CPU use (% of one core).
func idleCost(t testing.TB, pid int, d time.Duration) (float64, float64) {
	t.Helper()
	cpu := func() float64 {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(string(b)[strings.LastIndexByte(string(b), ')')+2:])
		u, _ := strconv.ParseFloat(f[11], 64)
		s, _ := strconv.ParseFloat(f[12], 64)
		return (u + s) / 100 // clock ticks at USER_HZ=100
	}
	c0, t0 := cpu(), time.Now()
	time.Sleep(d)
	c1, el := cpu(), time.Since(t0).Seconds()
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	var rssKB float64
	for l := range strings.SplitSeq(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			rssKB, _ = strconv.ParseFloat(strings.Fields(l)[1], 64)
		}
	}
	return rssKB / 1024, 100 * (c1 - c0) / el
}
