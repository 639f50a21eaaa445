package cli

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// printHistory writes items as the history table, or says none match.
func printHistory(stdio IO, items []control.Item) error {
	if len(items) == 0 {
		fmt.Fprintln(stdio.Out, "No questions match.")
		return nil
	}
	tw := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ASKED\tCLIENT\tKIND\tOUTCOME\tANSWER\tVIA\tTOOK\tQUESTION")
	now := time.Now()
	for _, it := range items {
		state, answer, via, took := historyVerdict(it), "", "", ""
		if r := it.Result; r != nil {
			answer = oneLine(string(r.Value), 24)
			via = safe(string(r.Via))
			took = (time.Duration(it.ElapsedMS) * time.Millisecond).Round(time.Second).String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", ago(now, it.Question.Created), clientCell(&it.Question),
			safe(string(it.Question.Kind)), state, answer, via, took, questionCell(&it.Question, 50))
	}
	return tw.Flush()
}

// historyVerdict is the OUTCOME column: the verdict as the history window
// names it, with the rule that decided and what was learnt afterwards.
func historyVerdict(it control.Item) string {
	v := question.VerdictOf(&it.Question, it.Result)
	s := present.RecordMark(&it.Question, it.Result).Label
	if r := it.Result; r != nil && r.RuleID != "" && (v == question.VerdictRuleAllowed || v == question.VerdictRuleDenied) {
		s += " (" + safe(r.RuleID) + ")"
	}
	if why := present.WithdrawnWhy(it.Result); why != "" {
		s += " (" + why + ")"
	}
	if _, short := present.Afterwards(it.Result); short != "" {
		s += "; " + short // the decision did not count
	}
	return s
}
