package history

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSQLite_FilterByHost: the history selects a remote host's questions by
// its name, this machine's own by ThisMachine (rows from before hosts
// included), and all without a host; the host survives the round trip.
func TestSQLite_FilterByHost(t *testing.T) {
	t.Parallel()
	s := openSQLite(t)
	if hosts, err := s.Hosts(context.Background()); err != nil || len(hosts) != 0 {
		t.Fatalf("hosts of an empty history: %q %v", hosts, err)
	}
	local := newQuestion("local", base)
	build := newQuestion("build", base.Add(time.Second))
	build.Host = "build-01"
	agent := newQuestion("agent", base.Add(2*time.Second))
	agent.Host = "agent@localhost"
	add(t, s, local, nil)
	add(t, s, build, answered("ok", base.Add(3*time.Second)))
	add(t, s, agent, nil)
	if hosts, err := s.Hosts(context.Background()); err != nil || !slices.Equal(hosts, []string{"agent@localhost", "build-01"}) {
		t.Fatalf("hosts %q %v, want the two remote hosts", hosts, err)
	}
	for host, want := range map[string][]string{
		"":                {"agent", "build", "local"},
		"build-01":        {"build"},
		"agent@localhost": {"agent"},
		ThisMachine:       {"local"},
		"nowhere":         {},
	} {
		p, err := s.List(context.Background(), Filter{Host: host})
		if err != nil {
			t.Fatal(err)
		}
		got := ids(p.Records)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("host %q: %v, want %v", host, got, want)
		}
		for _, r := range p.Records {
			if r.Question.ID == "build" && r.Question.Host != "build-01" {
				t.Errorf("the host did not survive the round trip: %q", r.Question.Host)
			}
		}
	}
}
