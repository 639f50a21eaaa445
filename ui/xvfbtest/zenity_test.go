package xvfbtest

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkZenity measures the comparison for the dialog latency figure: the
// time from spawning `zenity --question` (Debian's zenity, one process per
// question, the way zenity-based MCP servers such as nazar256/user-prompt-mcp
// ask) to its window being mapped, by the same xdotool polling as
// BenchmarkDesktop, on a fresh Xvfb display. It asserts nothing about speed;
// make bench prints its line next to Asktray's.
func BenchmarkZenity(b *testing.B) {
	const n = 20
	need(b, "zenity")
	d := newSession(b)
	var lat []time.Duration
	for i := range n {
		title := fmt.Sprintf("zenity asks %d", i)
		start := time.Now()
		z := exec.Command("zenity", "--question", "--title", title, "--text", fmt.Sprintf("Question %d?", i))
		z.Env = d.env
		if err := z.Start(); err != nil {
			b.Fatalf("start zenity: %v", err)
		}
		d.waitMapped(b, title, 20*time.Second)
		lat = append(lat, time.Since(start))
		_ = z.Process.Kill()
		_ = z.Wait()
		for !d.windowGone(title) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	slices.Sort(lat)
	fmt.Printf("zenity --question mapped after spawn (%d questions, xdotool polling): p50 %v, p95 %v, min %v, max %v\n",
		n, lat[n/2-1].Round(time.Millisecond), lat[n*95/100-1].Round(time.Millisecond), lat[0].Round(time.Millisecond), lat[n-1].Round(time.Millisecond))
	b.ReportMetric(float64(lat[n/2-1].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[n*95/100-1].Microseconds())/1000, "p95-ms")
}

// waitMapped polls, with no sleep between xdotool runs, until a visible
// window has the title; one poll takes a few milliseconds, which bounds the
// error of a measured time to window.
func (d *desktop) waitMapped(t testing.TB, title string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		cmd := exec.Command("xdotool", "search", "--onlyvisible", "--name", "^"+title+"$")
		cmd.Env = d.env
		out, _ := cmd.Output()
		if strings.TrimSpace(string(out)) != "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no window %q after %v", title, timeout)
		}
	}
}
