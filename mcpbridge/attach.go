package mcpbridge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/asktray/asktray/app/question"
)

// attachKey identifies a repeated question: the same asker (see
// caller.owner) asking the same thing.
type attachKey struct {
	owner string
	fp    string
}

// fingerprint hashes what makes two questions the same question. input,
// when set, is the fingerprint of the whole tool input that q's details
// render, and replaces the details: a rendering may cut what it shows.
func fingerprint(q question.Question, input string) string {
	if input != "" {
		q.Details = ""
	}
	b, _ := json.Marshal(struct {
		Kind                               question.Kind
		Header                             string
		Message                            string
		Options                            []question.Option
		Schema                             json.RawMessage
		FreeText                           bool
		Min, Max                           int
		Tool, Action, Details, AgentReason string
		Risk                               question.Risk
		Destructive                        bool
		Input                              string
	}{q.Kind, q.Header, q.Message, q.Options, q.Schema, q.FreeText, q.MinSelect + q.MinLength, q.MaxSelect + q.MaxLength,
		q.Tool, q.Action, q.Details, q.AgentReason, q.Risk, q.Destructive, input})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// attachments remembers recent questions so that a client retrying a call
// after its own timeout re-attaches to the open dialog, or collects an
// answer given after it stopped waiting, instead of asking twice.
type attachments struct {
	mu     sync.Mutex
	byFP   map[attachKey][]string
	sent   map[string]bool // ids whose outcome reached the agent
	when   map[string]time.Time
	grants map[string]time.Time   // ids whose allow (or destructive yes) reached the agent, and when
	owners map[string]asker       // every question asked through the bridge: who asked it
	busy   map[attachKey]*keyLock // keys being asked now (lock)

	// The bound on all of the above (attach_bound.go): the ids in the order
	// asked, and when gc last walked the maps.
	order []string
	gcAt  time.Time
}

// keyLock is one key's lock and how many calls hold or wait for it.
type keyLock struct {
	mu sync.Mutex
	n  int
}

// lock serializes the asks of key k: a call holds it from looking for an
// open question (find) until it has recorded the one it asked (add), so
// that the same call made meanwhile (a re-issue, a retry on another
// stream) re-attaches to that question instead of asking twice. It blocks
// while another call holds k; hold it only for that short stretch, never
// while waiting for an answer. The returned function unlocks.
func (a *attachments) lock(k attachKey) (unlock func()) {
	a.mu.Lock()
	if a.busy == nil {
		a.busy = map[attachKey]*keyLock{}
	}
	l := a.busy[k]
	if l == nil {
		l = &keyLock{}
		a.busy[k] = l
	}
	l.n++
	a.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		a.mu.Lock()
		if l.n--; l.n == 0 {
			delete(a.busy, k)
		}
		a.mu.Unlock()
	}
}

// asker is who asked a question and when: key.owner is the asker
// (caller.owner), and key is where byFP lists the question.
type asker struct {
	key attachKey
	at  time.Time
}

// keepFor bounds how long an undelivered answer waits to be collected by a re-ask.
const keepFor = time.Hour

// grantsFor is how long a delivered allow is remembered so that it is not
// delivered again: longer than any question can stay open.
const grantsFor = question.MaxTimeout + time.Hour

func newAttachments() *attachments {
	return &attachments{byFP: map[attachKey][]string{}, sent: map[string]bool{}, when: map[string]time.Time{},
		grants: map[string]time.Time{}, owners: map[string]asker{}}
}

func (a *attachments) add(k attachKey, id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if time.Since(a.gcAt) >= gcEvery {
		a.gcAt = time.Now()
		a.gc()
	}
	a.byFP[k] = append(a.byFP[k], id)
	a.when[id] = time.Now()
	a.owners[id] = asker{k, time.Now()}
	a.order = append(a.order, id)
	a.bound()
}

// owns reports whether question id was asked through the bridge by owner
// (see caller.owner): the asker a repeated ask re-attaches to it for, and
// the only one get_answer and cancel_question act for. A question the
// hooks, the CLI or another session asked is not owned. It does not block.
func (a *attachments) owns(id, owner string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	o, ok := a.owners[id]
	return ok && o.key.owner == owner
}

// asked reports whether question id was asked through the bridge (by
// anyone) in the last grantsFor. It does not block for long.
func (a *attachments) asked(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.owners[id]
	return ok
}

// delivered marks id's outcome as having reached the agent, so that a later
// identical question is a new question. For a grant (an approval allowed, a
// destructive confirmation answered yes) it reports whether this is its
// first delivery: an "allow once" reaches the agent once, whichever call
// (the ask, a re-ask, get_answer, cancel_question) collects it first.
func (a *attachments) delivered(id string, grant bool) (first bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.when[id]; ok {
		a.sent[id] = true
	}
	if !grant {
		return true
	}
	if _, ok := a.grants[id]; ok {
		return false
	}
	a.grants[id] = time.Now()
	return true
}

// find returns the question a repeated ask should attach to, and its result
// when it already ended. The key holds the asker (its session, or for a
// client without one its name and working directory), so an earlier
// question or outcome is shared only with the same asker: two agents that
// happen to ask the same thing keep separate dialogs and answers.
func (a *attachments) find(b *question.Broker, k attachKey) (string, *question.Result) {
	a.mu.Lock()
	ids := append([]string(nil), a.byFP[k]...)
	sent := make(map[string]bool, len(ids))
	for _, id := range ids {
		sent[id] = a.sent[id]
	}
	a.mu.Unlock()
	for _, id := range slices.Backward(ids) {
		if sent[id] {
			continue
		}
		q, res, err := b.Get(id)
		if err != nil {
			continue
		}
		if res != nil {
			// A person's decision given after the asker left is what the
			// retry wants; a timeout, an interruption or a withdrawal is not:
			// the retry gets a fresh dialog instead.
			if res.Outcome == question.Withdrawn || res.Outcome == question.Interrupted ||
				(res.Outcome == question.AutoRejected && res.Reason == question.ReasonTimeout) {
				continue
			}
			return id, res
		}
		if q.State == question.StatePending {
			return id, nil
		}
	}
	return "", nil
}

// gc forgets entries older than keepFor, and delivered grants and askers
// older than grantsFor (longer than any question stays open). The caller holds a.mu.
func (a *attachments) gc() {
	for id, t := range a.grants {
		if time.Since(t) > grantsFor {
			delete(a.grants, id)
		}
	}
	for id, o := range a.owners {
		if time.Since(o.at) > grantsFor {
			delete(a.owners, id)
		}
	}
	cut := time.Now().Add(-keepFor)
	for k, ids := range a.byFP {
		kept := ids[:0]
		for _, id := range ids {
			if a.when[id].After(cut) {
				kept = append(kept, id)
			} else {
				delete(a.when, id)
				delete(a.sent, id)
			}
		}
		if len(kept) == 0 {
			delete(a.byFP, k)
		} else {
			a.byFP[k] = kept
		}
	}
}
