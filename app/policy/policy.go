package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/asktray/asktray/app/atomicfile"
	"github.com/asktray/asktray/app/question"
)

// File is the name of the policy's state file in the data dir.
const File = "policy.json"

// ErrNotFound is returned for a rule id the policy does not hold.
var ErrNotFound = errors.New("no rule with that id")

// state is what policy.json holds.
type state struct {
	Away bool `json:"away"`
	// AwayUntil, with Away, is when away ends by itself; zero: when the
	// person switches it off.
	AwayUntil time.Time `json:"away_until,omitzero"`
	// BackUntil is when the weekly schedule takes over again after the
	// person switched away off during one of its stretches.
	BackUntil time.Time `json:"back_until,omitzero"`
	Rules     []Rule    `json:"rules"`
}

// Policy holds the rules and away mode. It is safe for concurrent use by any
// goroutine; methods that change it block until the file is written.
type Policy struct {
	path string
	now  func() time.Time

	wmu sync.Mutex // serializes changes and their file writes

	mu       sync.RWMutex
	away     bool
	until    time.Time // with away: when it ends by itself; zero: never
	back     time.Time // the schedule holds no sway before it (the person came back)
	sched    Schedule  // the weekly away schedule, from the settings
	mode     AwayMode
	rules    []Rule
	subs     map[int]func()
	nextSub  int
	saveHook func() error // tests: fail writes
}

// Open loads the policy kept at path (policy.json in the data dir); a missing
// file is an empty policy, away off. A malformed file, or a rule in it that
// does not validate, is an error naming the file. It blocks for the read.
func Open(path string) (*Policy, error) {
	p := &Policy{path: path, now: time.Now, mode: AwayHold, subs: map[int]func(){}}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	} else if err != nil {
		return nil, fmt.Errorf("read policy: %w", err)
	}
	var st state
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("policy %s: %w", path, err)
	}
	seen := map[string]bool{}
	for i, r := range st.Rules {
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("policy %s: rules[%d]: %w", path, i, err)
		}
		if r.ID == "" || seen[r.ID] {
			return nil, fmt.Errorf("policy %s: rules[%d]: id: missing or repeated", path, i)
		}
		if r.Scope == ScopeSession {
			continue // its session ended with the app that made it
		}
		seen[r.ID] = true
		p.rules = append(p.rules, r)
	}
	p.away, p.until, p.back = st.Away, st.AwayUntil, st.BackUntil
	return p, nil
}

// Rules returns a copy of the rules, oldest first, expired ones included.
// It does not block; any goroutine may call it.
func (p *Policy) Rules() []Rule {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return slices.Clone(p.rules)
}

// Rule returns the rule with id. It does not block.
func (p *Policy) Rule(id string) (Rule, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	i := p.index(id)
	if i < 0 {
		return Rule{}, false
	}
	return p.rules[i], true
}

// index returns the position of rule id, or -1. The caller holds p.mu.
func (p *Policy) index(id string) int {
	return slices.IndexFunc(p.rules, func(r Rule) bool { return r.ID == id })
}

// Add validates r, gives it a fresh ID and its Created time (now), saves it
// and returns it. A ScopeAlways rule drops its SessionID. Errors name the
// field and wrap question.ErrInvalid. It blocks for the file write.
func (p *Policy) Add(r Rule) (Rule, error) {
	r.ID = question.NewID()
	r.Created = p.now().UTC().Truncate(time.Second)
	if !r.Expires.IsZero() {
		r.Expires = r.Expires.UTC()
	}
	if r.Scope == ScopeAlways {
		r.SessionID = ""
	}
	if err := r.validate(); err != nil {
		return Rule{}, err
	}
	err := p.change(func() error {
		p.rules = append(p.rules, r)
		return nil
	})
	if err != nil {
		return Rule{}, err
	}
	return r, nil
}

// Update replaces the rule with r.ID by r, keeping its Created time, and
// saves it. Errors name the field and wrap question.ErrInvalid; an unknown ID
// wraps ErrNotFound. It blocks for the file write.
func (p *Policy) Update(r Rule) error {
	if r.Scope == ScopeAlways {
		r.SessionID = ""
	}
	if !r.Expires.IsZero() {
		r.Expires = r.Expires.UTC()
	}
	return p.change(func() error {
		i := p.index(r.ID)
		if i < 0 {
			return fmt.Errorf("rule %s: %w", r.ID, ErrNotFound)
		}
		r.Created = p.rules[i].Created
		if err := r.validate(); err != nil {
			return err
		}
		p.rules[i] = r
		return nil
	})
}

// Remove deletes the rule with id and saves the rest. An unknown id wraps
// ErrNotFound. It blocks for the file write.
func (p *Policy) Remove(id string) error {
	return p.change(func() error {
		i := p.index(id)
		if i < 0 {
			return fmt.Errorf("rule %s: %w", id, ErrNotFound)
		}
		p.rules = slices.Delete(p.rules, i, i+1)
		return nil
	})
}

// AwayMode returns what happens to new questions while away. It does not block.
func (p *Policy) AwayMode() AwayMode {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.mode
}

// SetAwayMode sets what happens to new questions while away; anything but
// AwayReject and AwayHandback means AwayHold. The mode lives in the
// settings, so nothing is written. Subscribers are told. It does not block.
func (p *Policy) SetAwayMode(m AwayMode) {
	if m != AwayReject && m != AwayHandback {
		m = AwayHold
	}
	p.mu.Lock()
	changed := p.mode != m
	p.mode = m
	p.mu.Unlock()
	if changed {
		p.notify()
	}
}

// Subscribe registers fn to be called after the rules, away, the away mode
// or the weekly schedule change, and returns a function that unregisters it. fn runs on the
// goroutine that made the change, never under the Policy's lock; it must not
// block and may call the Policy's methods.
func (p *Policy) Subscribe(fn func()) (cancel func()) {
	p.mu.Lock()
	id := p.nextSub
	p.nextSub++
	p.subs[id] = fn
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		delete(p.subs, id)
		p.mu.Unlock()
	}
}

func (p *Policy) notify() {
	p.mu.RLock()
	keys := make([]int, 0, len(p.subs))
	for k := range p.subs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	fns := make([]func(), 0, len(keys))
	for _, k := range keys {
		fns = append(fns, p.subs[k])
	}
	p.mu.RUnlock()
	for _, fn := range fns {
		fn()
	}
}

// change applies fn to the state, saves it, and tells subscribers. When fn
// or the save fails, the state is left as it was.
func (p *Policy) change(fn func() error) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	p.mu.Lock()
	oldRules, oldAway, oldUntil, oldBack := slices.Clone(p.rules), p.away, p.until, p.back
	if err := fn(); err != nil {
		p.mu.Unlock()
		return err
	}
	st := state{Away: p.away, AwayUntil: p.until, BackUntil: p.back, Rules: make([]Rule, 0, len(p.rules))}
	for _, r := range p.rules {
		if r.Scope != ScopeSession {
			st.Rules = append(st.Rules, r)
		}
	}
	p.mu.Unlock()
	if err := p.save(st); err != nil {
		p.mu.Lock()
		p.rules, p.away, p.until, p.back = oldRules, oldAway, oldUntil, oldBack
		p.mu.Unlock()
		return fmt.Errorf("save policy: %w", err)
	}
	p.notify()
	return nil
}

// save writes st to the policy file (0600) atomically.
func (p *Policy) save(st state) error {
	if p.saveHook != nil {
		if err := p.saveHook(); err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(p.path, append(b, '\n'), 0o600)
}
