package present

import (
	"strings"
	"unicode"

	"github.com/asktray/asktray/app/question"
)

// destructiveStems begin the words that make a yes lose something: a word
// of the yes label or of the question that starts with one of them reads
// as destructive ("Overwrite", "deleting", "force-push", "--force",
// "drop", "rm"). Over-matching is the safe side: it only makes No the
// default.
var destructiveStems = []string{
	"overwrit", "delet", "drop", "forc", "remov", "reset", "truncat", "wipe", "wiping",
	"purg", "destroy", "destruct", "eras", "discard", "uninstall", "prune", "revok",
	"kill", "nuke", "clobber", "obliterat", "rm", "rmdir", "shred", "unlink",
}

// exactStems are stems that count only as a whole word: "rm" starts
// "rmdir" (listed itself) but must not make "rms" or "rmap" destructive.
var exactStems = map[string]bool{"rm": true}

// DestructiveWord returns the first word of q's yes label, header or
// message (in that order) that reads as destructive, or "" when none does.
// It reads only what the person reads; Question.Destructive is the agent's
// own flag (see ReadsDestructive).
func DestructiveWord(q *question.Question) string {
	for _, s := range []string{q.YesLabel, q.Header, q.Message, q.Action} {
		if w := destructiveWord(s); w != "" {
			return w
		}
	}
	return ""
}

// ReadsDestructive reports whether saying yes to q may lose something: the
// agent said so (Destructive) or the yes label or the question reads so
// (DestructiveWord). A front end makes its safe answer (No, Deny) the
// default whenever it does, so Enter never destroys.
func ReadsDestructive(q *question.Question) bool {
	return q.Destructive || DestructiveWord(q) != ""
}

// DestructiveWarning is the warning line of a question that reads as
// destructive, or "" for one that does not: the agent's flag says it may
// not be reversible; a word alone says which word made No the default.
func DestructiveWarning(q *question.Question) string {
	if q.Destructive {
		return "Destructive: this may not be reversible."
	}
	if w := DestructiveWord(q); w != "" {
		return "This reads as destructive (“" + Visible(w) + "”), so Enter says no."
	}
	return ""
}

// destructiveWord returns the first word of s that starts with a
// destructive stem, as written.
func destructiveWord(s string) string {
	for w := range strings.FieldsFuncSeq(s, func(r rune) bool {
		return !unicode.IsLetter(r) && r != '-' && r != '_'
	}) {
		for part := range strings.FieldsFuncSeq(strings.ToLower(w), func(r rune) bool { return r == '-' || r == '_' }) {
			for _, stem := range destructiveStems {
				if part == stem || (!exactStems[stem] && strings.HasPrefix(part, stem)) {
					return w
				}
			}
		}
	}
	return ""
}
