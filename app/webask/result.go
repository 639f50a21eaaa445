package webask

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// resultView is the page shown after an answer, or when the question had
// already ended, under the question's headline and client line as
// newView makes them.
func resultView(q question.Question, r question.Result, ended bool, home string, started time.Time) *view {
	v := &view{Q: q, Title: present.Headline(&q, home), ClientLine: present.SessionLine(q.Client, q.Cwd, started, time.Local)}
	rt := &resultText{Ended: ended}
	who := q.Client.DisplayName()
	switch r.Outcome {
	case question.Answered:
		rt.Outcome = "Answer sent. " + who + " gets it."
		rt.Lines = answerLines(q, r.Value)
	case question.Declined:
		rt.Outcome = "Declined. " + who + " is told you said no."
		if q.Kind == question.KindApproval {
			rt.Outcome = "Denied. " + who + " is told you said no."
		}
	case question.Cancelled:
		rt.Outcome = "Dismissed. " + who + " is told you dismissed it."
	default:
		rt.Outcome = "This question ended: " + strings.ReplaceAll(string(r.Outcome), "_", " ") + "."
	}
	if ended {
		rt.Outcome = "This question had already ended (" + strings.ReplaceAll(string(r.Outcome), "_", " ") + "); your answer was not used."
		rt.Lines = nil
	}
	if r.Note != "" && !ended {
		rt.Lines = append(rt.Lines, "Note: "+r.Note)
	}
	v.Result = rt
	return v
}

// answerLines describes an accepted value for the result page.
func answerLines(q question.Question, raw json.RawMessage) []string {
	switch q.Kind {
	case question.KindConfirm:
		if string(raw) == `"yes"` {
			return []string{"Your answer: " + present.LabelOr(q.YesLabel, "Yes")}
		}
		return []string{"Your answer: " + present.LabelOr(q.NoLabel, "No")}
	case question.KindApproval:
		return []string{"Allowed once."}
	case question.KindNotice:
		return nil
	case question.KindChoice, question.KindMultiChoice:
		var picked []string
		_ = json.Unmarshal(raw, &picked)
		if len(picked) == 0 {
			return nil
		}
		return []string{"Your answer: " + strings.Join(picked, ", ")}
	case question.KindForm:
		s, err := question.ParseSchema(q.Schema)
		if err != nil {
			return []string{string(raw)}
		}
		var obj map[string]json.RawMessage
		_ = json.Unmarshal(raw, &obj)
		var lines []string
		for _, f := range s.Fields {
			if val, ok := obj[f.Name]; ok {
				lines = append(lines, present.LabelOr(f.Title, f.Name)+": "+string(val))
			}
		}
		return lines
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return []string{"Your answer: " + s}
}
