package mcpbridge

import (
	"time"

	"github.com/asktray/asktray/app/question"
)

// keepMost bounds how many questions attachments remembers, whatever their
// age. A busy agent asks 30 a second, and keeping each one for keepFor (an
// hour) and its grant and asker for grantsFor grew the maps without end
// (about 1 KB a question, 2 MB a minute) while every add walked them all. A
// question the broker has forgotten (it keeps the last
// question.Config.KeepFinished ended ones, question.DefaultKeepFinished
// unless set) can no longer be collected, re-attached to or delivered, so
// twice that is plenty.
const keepMost = 2 * question.DefaultKeepFinished

// gcEvery is how often add walks the maps for entries past their time:
// an entry may outlive keepFor or grantsFor by that much.
const gcEvery = time.Minute

// bound forgets the oldest questions whose outcome reached the agent (or
// older than keepFor) while more than keepMost are remembered. One not yet
// delivered (still open, or answered after its asker left) stays until
// keepFor, as before. The caller holds a.mu.
func (a *attachments) bound() {
	for n := len(a.order); len(a.owners) > keepMost && n > 0; n-- {
		id := a.order[0]
		a.order = a.order[1:]
		if _, ok := a.owners[id]; !ok {
			continue // gc forgot it already
		}
		if _, recent := a.when[id]; recent && !a.sent[id] {
			a.order = append(a.order, id) // still wanted: to the back
			continue
		}
		a.forget(id)
	}
	if len(a.order) > 2*keepMost { // ids gc forgot: compact
		kept := a.order[:0]
		for _, id := range a.order {
			if _, ok := a.owners[id]; ok {
				kept = append(kept, id)
			}
		}
		a.order = kept
	}
}

// forget drops question id from every map. The caller holds a.mu.
func (a *attachments) forget(id string) {
	if o, ok := a.owners[id]; ok {
		k := o.key
		ids := a.byFP[k]
		for i, x := range ids {
			if x == id {
				ids = append(ids[:i], ids[i+1:]...)
				break
			}
		}
		if len(ids) == 0 {
			delete(a.byFP, k)
		} else {
			a.byFP[k] = ids
		}
	}
	delete(a.when, id)
	delete(a.sent, id)
	delete(a.grants, id)
	delete(a.owners, id)
}
