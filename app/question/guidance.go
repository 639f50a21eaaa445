package question

import (
	"encoding/json"
	"fmt"
)

// Guidance is what an agent is told after one of its questions ended: what
// happened and what to do now. The MCP tools' next_step, permission_prompt's
// deny message and the agent hooks' deny message all take their words from
// Guide, so that every way in tells an agent the same thing about the same
// outcome; each only formats it (a question id, a channel's retry hint).
type Guidance struct {
	// Said is what happened: one sentence ending in a full stop.
	Said string
	// Note is the person's note with the answer, or the note of the rule
	// that decided; "" for none.
	Note string
	// Do is what the agent should do now; "" when nothing is to be said.
	Do string
}

// Text is g as one paragraph: Said, then the note quoted, then Do.
func (g Guidance) Text() string {
	s := g.Said
	if g.Note != "" {
		s += fmt.Sprintf(" Their note: %q.", g.Note)
	}
	if g.Do != "" {
		s += " " + g.Do
	}
	return s
}

// Guide returns the guidance for result r of question q. A choice's note is
// part of an accepted answer (its free text), so it is not repeated as a
// note then.
func Guide(q Question, r Result) Guidance {
	g := guide(q, r)
	if accepted := r.Outcome == Answered || r.Outcome == AutoApproved; accepted && (q.Kind == KindChoice || q.Kind == KindMultiChoice) {
		g.Note = ""
	}
	return g
}

func guide(q Question, r Result) Guidance {
	switch r.Outcome {
	case Answered:
		return answeredGuide(q, r)
	case AutoApproved:
		return Guidance{Said: fmt.Sprintf("A rule the user made approved this (rule %s).", r.RuleID), Do: "Proceed."}
	case Declined:
		if q.Kind == KindApproval {
			return Guidance{Said: "The user denied this action in Asktray.", Note: r.Note,
				Do: "Do not do it, and do not try to reach the same result another way; ask the user or continue without it."}
		}
		return Guidance{Said: "The user declined.", Note: r.Note, Do: "Do not proceed with this action and do not ask the same question again right away."}
	case Cancelled:
		return Guidance{Said: "The user dismissed the question in Asktray without answering.",
			Do: "Do not proceed; ask again only if it is still needed, perhaps worded differently."}
	case AutoRejected:
		return rejectedGuide(r)
	case Withdrawn:
		return Guidance{Said: "The question was withdrawn; no answer will come.", Do: "Nothing was approved: ask again if it is still needed."}
	case Interrupted:
		return Guidance{Said: "Asktray stopped before the user answered.", Do: "Ask again if it is still needed."}
	}
	return Guidance{Said: "Unknown outcome.", Do: "Do not proceed."}
}

func answeredGuide(q Question, r Result) Guidance {
	switch q.Kind {
	case KindApproval:
		if r.RuleID != "" {
			return Guidance{Said: fmt.Sprintf("The user allowed this and made a rule (%s) for actions like it.", r.RuleID), Note: r.Note,
				Do: "Proceed with exactly the action you described."}
		}
		return Guidance{Said: "The user allowed this action once.", Note: r.Note, Do: "Proceed with exactly the action you described; ask again for anything else."}
	case KindConfirm:
		var s string
		if json.Unmarshal(r.Value, &s) != nil || s != "yes" {
			return Guidance{Said: "The user answered no.", Note: r.Note, Do: "Do not proceed with the action; continue without it or ask what they want instead."}
		}
	case KindNotice:
		return Guidance{Said: "The user acknowledged the notice."}
	}
	return Guidance{Said: "The user answered.", Note: r.Note, Do: "Use the answer and continue."}
}

func rejectedGuide(r Result) Guidance {
	switch r.Reason {
	case ReasonTimeout:
		return Guidance{Said: "Nobody answered in Asktray before the deadline, so the answer is no.",
			Do: "Do not proceed and do not assume an answer; ask again later if it is still needed."}
	case ReasonAway:
		return Guidance{Said: "The user is away and Asktray rejects questions automatically meanwhile.", Do: "Do not proceed; ask again later."}
	case ReasonHandedBack:
		return Guidance{Said: "The user is away from Asktray and asked for questions to come back to your chat.",
			Do: "Ask the user this question in your own chat and wait for their reply; do not answer it yourself."}
	}
	return Guidance{Said: fmt.Sprintf("A rule the user made in Asktray (rule %s) denies this.", r.RuleID), Note: r.Note,
		Do: "Do not proceed, and do not try to reach the same result another way."}
}
