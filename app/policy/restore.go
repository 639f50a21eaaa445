package policy

import (
	"fmt"
	"slices"

	"github.com/asktray/asktray/app/question"
)

// Restore puts back rule r as it was, its ID and Created time kept (a rule
// Remove took out, for an Undo), among the rules by its Created time.
// An ID the policy holds already is an error naming it, and so is a rule
// that does not validate. It blocks for the file write.
func (p *Policy) Restore(r Rule) error {
	if r.ID == "" {
		return fmt.Errorf("id: %w: a restored rule keeps its id", question.ErrInvalid)
	}
	if err := r.validate(); err != nil {
		return err
	}
	return p.change(func() error {
		if p.index(r.ID) >= 0 {
			return fmt.Errorf("rule %s: %w: it is there already", r.ID, question.ErrInvalid)
		}
		at := slices.IndexFunc(p.rules, func(o Rule) bool { return o.Created.After(r.Created) })
		if at < 0 {
			at = len(p.rules)
		}
		p.rules = slices.Insert(p.rules, at, r)
		return nil
	})
}
