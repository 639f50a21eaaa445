package mcpbridge

import (
	"fmt"
	"strings"

	"github.com/asktray/asktray/app/question"
)

// StatusNeedsUserInput is the status of a question that away mode
// "handback" gave back to the agent: the agent asks the person in its own
// chat. The question itself ends as auto_rejected, reason handed_back.
const StatusNeedsUserInput = "needs_user_input"

// handedBack reports whether r is a question handed back to the agent's chat.
func handedBack(r *question.Result) bool {
	return r.Outcome == question.AutoRejected && r.Reason == question.ReasonHandedBack
}

// handbackNextStep tells the agent what to do with a handed-back question.
const handbackNextStep = "The user is away from Asktray and asked for questions to come back to your chat. " +
	"Ask them the question in message, in your own chat, word for word with its options; wait for their reply there and use it. " +
	"Do not answer it yourself, do not guess, and do not ask it through Asktray again."

// handbackMessage formats q for the agent to put to the person in its own
// chat: the header and question, then what kind of answer it takes (the
// options, the limits, the form's fields).
func handbackMessage(q question.Question) string {
	var b strings.Builder
	if q.Header != "" {
		b.WriteString("**" + q.Header + "**\n\n")
	}
	b.WriteString(q.Message)
	switch q.Kind {
	case question.KindConfirm:
		fmt.Fprintf(&b, "\n\nAnswer: %s or %s.", labelOr(q.YesLabel, "yes"), labelOr(q.NoLabel, "no"))
	case question.KindChoice, question.KindMultiChoice:
		b.WriteString("\n\n" + handbackPick(q))
		writeOptions(&b, q.Options)
		if q.FreeText {
			b.WriteString("\nThey may add a note in their own words.")
		}
	case question.KindText:
		if len(q.Options) > 0 {
			b.WriteString("\n\nSuggested answers:")
			writeOptions(&b, q.Options)
			if q.FreeText {
				b.WriteString("\nOr any answer in their own words.")
			} else {
				b.WriteString("\nOne of these only.")
			}
		}
		if q.MinLength > 0 || q.MaxLength > 0 {
			fmt.Fprintf(&b, "\n\nLength: %s.", lengthRule(q.MinLength, q.MaxLength))
		}
	case question.KindForm:
		writeFields(&b, q)
	}
	return b.String()
}

func handbackPick(q question.Question) string {
	if q.Kind == question.KindChoice {
		return "Pick one:"
	}
	lo, hi := q.SelectBounds()
	return fmt.Sprintf("Pick %d to %d:", lo, hi)
}

func writeOptions(b *strings.Builder, opts []question.Option) {
	for i, o := range opts {
		fmt.Fprintf(b, "\n%d. %s", i+1, o.Label)
		if o.Description != "" {
			b.WriteString(" — " + o.Description)
		}
	}
}

func lengthRule(lo, hi int) string {
	switch {
	case lo > 0 && hi > 0:
		return fmt.Sprintf("%d to %d characters", lo, hi)
	case lo > 0:
		return fmt.Sprintf("at least %d characters", lo)
	}
	return fmt.Sprintf("at most %d characters", hi)
}

// writeFields lists a form's fields: name, title, type, whether required,
// and the values of a choice.
func writeFields(b *strings.Builder, q question.Question) {
	s, err := question.ParseSchema(q.Schema)
	if err != nil || len(s.Fields) == 0 {
		return
	}
	b.WriteString("\n\nFields:")
	for _, f := range s.Fields {
		fmt.Fprintf(b, "\n- %s", f.Name)
		if f.Title != "" && f.Title != f.Name {
			fmt.Fprintf(b, " (%s)", f.Title)
		}
		fmt.Fprintf(b, ": %s", strings.ReplaceAll(string(f.Type), "_", "-"))
		if f.Required {
			b.WriteString(", required")
		}
		if len(f.Values) > 0 {
			vals := make([]string, len(f.Values))
			for i, v := range f.Values {
				vals[i] = v.Title
			}
			fmt.Fprintf(b, ", one of: %s", strings.Join(vals, ", "))
			if f.Type == question.FieldMultiSelect {
				b.WriteString(" (any number)")
			}
		}
		if f.Description != "" {
			b.WriteString(" — " + f.Description)
		}
	}
}

func labelOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
