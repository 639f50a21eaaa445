package xvfbtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/policy"
)

// BenchmarkBusyAgentHistory is item 9 of issue 37 on the real binary
// under Xvfb: a busy agent whose standing rule answers 30 request_approval
// calls a second for ASKTRAY_BUSY_SECONDS (60 by default), with History
// open and a row selected (clicked), side by side with History closed. It
// reports how long a new question's dialog takes to map (another client
// asks every 5 s; xdotool polls), the app's RSS at the start, at its most
// and at the end, and its anonymous memory (the heap and stacks, without
// the mapped libraries), the most it held in the last minute of each half
// of the load: what grows shows as anon-end-MB above anon-half-MB. With
// ASKTRAY_BUSY_BASELINE naming another build of asktray (an older
// commit's), the -baseline runs do the same on it, for figures side by
// side in one run. It asserts nothing about speed or size.
func BenchmarkBusyAgentHistory(b *testing.B) {
	secs := 60
	if v, err := strconv.Atoi(os.Getenv("ASKTRAY_BUSY_SECONDS")); err == nil && v > 0 {
		secs = v
	}
	builds := [][2]string{{"", ""}}
	if bin := os.Getenv("ASKTRAY_BUSY_BASELINE"); bin != "" {
		builds = append(builds, [2]string{"-baseline", bin})
	}
	for _, build := range builds {
		for _, open := range []bool{false, true} {
			name := map[bool]string{false: "history-closed", true: "history-open"}[open] + build[0]
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					busyDesktop(b, build[1], open, time.Duration(secs)*time.Second)
				}
			})
		}
	}
}

// busyDesktop runs the load on bin ("" for this build).
func busyDesktop(b *testing.B, bin string, historyOpen bool, load time.Duration) {
	d := newSession(b)
	if bin != "" {
		d.bin = bin
	}
	if err := os.MkdirAll(d.dataDir, 0o700); err != nil {
		b.Fatal(err)
	}
	pol, err := policy.Open(filepath.Join(d.dataDir, policy.File))
	if err == nil {
		_, err = pol.Add(policy.Rule{Client: "busy-agent", Action: "request_approval:Run the tests", Decision: policy.Allow, Scope: policy.ScopeAlways})
	}
	if err != nil {
		b.Fatal(err)
	}
	d.start(b, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	if historyOpen {
		d.openHistory(b)
	}
	busy, lat := d.client(b, "busy-agent"), d.client(b, "latency")
	pid := d.app.Process.Pid
	rssStart := rssMB(b, pid)
	rssMax := rssStart
	began, anonStart := time.Now(), anonMB(b, pid)
	var anonHalf, anonEnd float64 // the most in the last minute of each half
	window := min(time.Minute, load/2)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var answered, failed int64
	var mu sync.Mutex
	tick := time.NewTicker(time.Second / 30)
	defer tick.Stop()
	for range 4 { // callers, so that a slow answer does not slow the rate
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				r, err := busy.CallTool(context.Background(), &sdk.CallToolParams{Name: "request_approval",
					Arguments: map[string]any{"action": "Run the tests", "details": "`npm test`"}})
				mu.Lock()
				if err != nil || r.IsError {
					failed++
				} else {
					answered++
				}
				mu.Unlock()
			}
		})
	}
	var toDialog []time.Duration
	for end, i := time.Now().Add(load), 0; time.Now().Before(end); i++ {
		start := time.Now()
		if _, err := lat.CallTool(context.Background(), &sdk.CallToolParams{Name: "ask_text",
			Arguments: map[string]any{"question": fmt.Sprintf("Question %d?", i), "wait": false}}); err != nil {
			b.Fatal(err)
		}
		d.waitWindow(b, "latency asks", 60*time.Second)
		toDialog = append(toDialog, time.Since(start))
		out, _ := d.cli("pending", "--json")
		if _, err := d.cli("answer", between(out, `"id": "`, `"`), "--cancel"); err != nil {
			b.Fatal(err)
		}
		for next := time.Now().Add(5 * time.Second); time.Now().Before(next); time.Sleep(time.Second) {
			rssMax = max(rssMax, rssMB(b, pid))
			switch at := time.Since(began); {
			case at <= load/2 && at > load/2-window:
				anonHalf = max(anonHalf, anonMB(b, pid))
			case at > load-window:
				anonEnd = max(anonEnd, anonMB(b, pid))
			}
		}
	}
	close(stop)
	wg.Wait()
	rssEnd := rssMB(b, d.app.Process.Pid)
	slices.Sort(toDialog)
	b.ReportMetric(float64(toDialog[len(toDialog)/2].Milliseconds()), "dialog-p50-ms")
	b.ReportMetric(float64(toDialog[len(toDialog)-1].Milliseconds()), "dialog-max-ms")
	b.ReportMetric(rssStart, "rss-start-MB")
	b.ReportMetric(rssMax, "rss-max-MB")
	b.ReportMetric(rssEnd, "rss-end-MB")
	b.ReportMetric(anonStart, "anon-start-MB")
	b.ReportMetric(anonHalf, "anon-half-MB")
	b.ReportMetric(anonEnd, "anon-end-MB")
	b.ReportMetric(float64(answered)/load.Seconds(), "answers/s")
	b.ReportMetric(float64(failed), "failed")
}

// anonMB returns a process's anonymous resident memory in MB (its heap
// and stacks; file-backed pages, the mapped libraries, are not counted).
func anonMB(t testing.TB, pid int) float64 { return procMB(t, pid, "smaps_rollup", "Anonymous:") }

// openHistory clicks History… in the tray menu over D-Bus, waits for the
// window and clicks its first row.
func (d *desktop) openHistory(b testing.TB) {
	reg := d.watcher.wait(b, 20*time.Second)
	menu := d.menuOf(b, reg.sender)
	// A click on a layout read while the app was still building its menu can
	// name an item gone since (the app logs "no menu item with ID"): read
	// the layout again and click again until the window shows.
	for try := 0; try < 5 && d.windowGone("Asktray history"); try++ {
		menu.click(b, menu.with(b, "History…"), "History…")
		for until := time.Now().Add(4 * time.Second); time.Now().Before(until) && d.windowGone("Asktray history"); {
			time.Sleep(50 * time.Millisecond)
		}
	}
	w := d.waitWindow(b, "Asktray history", 20*time.Second)
	out := d.x(b, "xdotool", "getwindowgeometry", w)
	pos := between(out, "Position: ", " ")
	x, y, _ := strings.Cut(pos, ",")
	px, _ := strconv.Atoi(x)
	py, _ := strconv.Atoi(y)
	d.x(b, "xdotool", "mousemove", strconv.Itoa(px+150), strconv.Itoa(py+140), "click", "1")
}
