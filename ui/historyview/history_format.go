package historyview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// The helpers in this file only format values; any goroutine may call them.

// historyFilters are the outcome filter's choices after "All outcomes":
// the verdicts, and By rule.
var historyFilters = present.VerdictFilters()

// outcomeLook is how the history shows a verdict: its label, and its mark
// as an icon and a colour that means something (success, error, warning,
// primary or neutral).
type outcomeLook struct {
	name       string
	icon       fyne.Resource
	color      fyne.ThemeColorName
	importance widget.Importance
}

// verdictIcons draws each icon a verdict's mark names.
var verdictIcons = map[string]func() fyne.Resource{
	present.IconPending: theme.MoreHorizontalIcon,
	present.IconAllow:   theme.ConfirmIcon,
	present.IconDeny:    theme.CancelIcon,
	present.IconRule:    theme.SettingsIcon,
	present.IconAnswer:  theme.MailReplyIcon,
	present.IconDecline: theme.ContentRemoveIcon,
	present.IconDismiss: theme.ContentClearIcon,
	present.IconTimeout: theme.HistoryIcon,
	present.IconUndo:    theme.ContentUndoIcon,
	present.IconAway:    theme.VisibilityOffIcon,
	present.IconWarning: theme.WarningIcon,
}

// verdictRoles gives each colour role its theme colour and label importance.
var verdictRoles = map[string]struct {
	color      fyne.ThemeColorName
	importance widget.Importance
}{
	present.RolePrimary: {theme.ColorNamePrimary, widget.HighImportance},
	present.RoleSuccess: {theme.ColorNameSuccess, widget.SuccessImportance},
	present.RoleError:   {theme.ColorNameError, widget.DangerImportance},
	present.RoleWarning: {theme.ColorNameWarning, widget.WarningImportance},
	present.RoleNeutral: {theme.ColorNamePlaceHolder, widget.MediumImportance},
}

// lookOf returns how to show rec's end: present.RecordMark drawn with
// Fyne's icons and colours. It may be called from any goroutine.
func lookOf(rec history.Record) outcomeLook {
	m := present.RecordMark(&rec.Question, rec.Result)
	icon, ok := verdictIcons[m.Icon]
	if !ok {
		icon = theme.QuestionIcon
	}
	role, ok := verdictRoles[m.Role]
	if !ok {
		role = verdictRoles[present.RoleNeutral]
	}
	return outcomeLook{name: m.Label, icon: theme.NewColoredResource(icon(), role.color), color: role.color, importance: role.importance}
}

// stateOf returns the state of rec: pending or its outcome.
func stateOf(rec history.Record) question.State {
	if rec.Result == nil {
		return question.StatePending
	}
	return question.State(rec.Result.Outcome)
}

// historyKindName is the kind as the history shows it.
func historyKindName(k question.Kind) string {
	switch k {
	case question.KindMultiChoice:
		return "Multi-choice"
	case "":
		return ""
	}
	return strings.ToUpper(string(k[:1])) + string(k[1:])
}

// historyAgo says how long before now t was: "just now", "5 min ago",
// "3 h ago", "yesterday", "4 days ago", then the date.
func historyAgo(now, t time.Time) string {
	now, t = now.Local(), t.Local()
	d := now.Sub(t)
	days := calendarDays(t, now)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case days == 0:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	case days == 1:
		return "yesterday"
	case days < 7:
		return fmt.Sprintf("%d days ago", days)
	case t.Year() == now.Year():
		return t.Format("2 Jan")
	}
	return t.Format("2 Jan 2006")
}

// calendarDays counts the midnights between a and b in local time.
func calendarDays(a, b time.Time) int {
	da := time.Date(a.Year(), a.Month(), a.Day(), 12, 0, 0, 0, time.UTC)
	db := time.Date(b.Year(), b.Month(), b.Day(), 12, 0, 0, 0, time.UTC)
	return int(db.Sub(da).Hours() / 24)
}

// historyTime is a timestamp in local time for the detail pane.
func historyTime(t time.Time) string {
	return t.Local().Format("Mon 2 Jan 2006, 15:04:05")
}

// historyElapsed says how long a question waited: "<1 s", "12 s", "3 min 05 s", "2 h 07 min".
func historyElapsed(d time.Duration) string {
	switch {
	case d < time.Second:
		return "<1 s"
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min %02d s", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%d h %02d min", int(d.Hours()), int(d.Minutes())%60)
}

// reasonText explains an automatic outcome in a few words.
func reasonText(r *question.Result) string {
	switch r.Reason {
	case question.ReasonTimeout:
		return "timed out"
	case question.ReasonAway:
		return "away mode"
	case question.ReasonHandedBack:
		return "handed back to the agent's chat"
	case question.ReasonStopped:
		return "app stopped"
	case question.ReasonAnsweredInAgent:
		return "answered in the agent"
	case question.ReasonHostDisconnected:
		return present.WithdrawnWhy(r)
	case question.ReasonRule:
		if r.RuleID != "" {
			return "rule " + r.RuleID
		}
		return "a rule"
	}
	if r.DecidedBy == question.ByRule && r.RuleID != "" {
		return "rule " + r.RuleID
	}
	return string(r.Reason)
}

// shortAnswer is the row's one-line summary of what happened.
func shortAnswer(rec history.Record) string {
	r := rec.Result
	if _, short := present.Afterwards(r); short != "" {
		return short // it makes the rest not count
	}
	switch {
	case r == nil:
		return "waiting"
	case len(r.Value) > 0 && (r.Outcome == question.Answered || r.Outcome == question.AutoApproved):
		return valueSummary(rec.Question, r.Value)
	case r.Reason == question.ReasonTimeout || r.Reason == question.ReasonAway:
		return "" // the verdict says it: timed out, away mode
	case present.WithdrawnWhy(r) != "":
		return present.WithdrawnWhy(r)
	case r.Outcome == question.AutoRejected || r.Outcome == question.AutoApproved || r.Outcome == question.Interrupted:
		return reasonText(r)
	case r.Note != "":
		return "“" + r.Note + "”"
	}
	return ""
}

// valueSummary shows an answer's value on one line: a string as itself, a
// confirm as its button label, a list joined by commas, a form's fields as
// "name: value".
func valueSummary(q question.Question, raw json.RawMessage) string {
	if label, ok := question.AgentRuleChoice(raw); ok && q.Kind == question.KindApproval {
		return "Allow: " + label
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return string(raw)
	}
	switch v := v.(type) {
	case string:
		if q.Kind == question.KindConfirm {
			switch {
			case v == "yes" && q.YesLabel != "":
				return q.YesLabel
			case v == "no" && q.NoLabel != "":
				return q.NoLabel
			}
		}
		if q.Kind == question.KindConfirm || q.Kind == question.KindApproval || q.Kind == question.KindNotice {
			return strings.ToUpper(v[:min(1, len(v))]) + v[min(1, len(v)):]
		}
		return strings.Join(strings.Fields(v), " ")
	case []any:
		parts := make([]string, 0, len(v))
		for _, x := range v {
			parts = append(parts, scalarText(x))
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			parts = append(parts, k+": "+scalarText(v[k]))
		}
		return strings.Join(parts, ", ")
	}
	return scalarText(v)
}

// scalarText shows one JSON value compactly.
func scalarText(v any) string {
	switch v := v.(type) {
	case string:
		return strings.Join(strings.Fields(v), " ")
	case nil:
		return "null"
	case json.Number:
		return v.String()
	case bool:
		return fmt.Sprint(v)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// answerText is what Copy answer puts on the clipboard: a string answer as
// plain text, anything else as indented JSON.
func answerText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return indentJSON(raw)
}

// indentJSON indents raw, or returns it as it is when it is not JSON.
func indentJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// deciderText says who decided and by which way: "You, in the dialog",
// "Timeout", "Rule r1", "Away mode".
func deciderText(r *question.Result) string {
	if r.Reason == question.ReasonAway || r.Reason == question.ReasonHandedBack {
		return "Away mode"
	}
	switch r.DecidedBy {
	case question.ByHuman:
		switch r.Via {
		case question.ViaDialog:
			return "You, in the dialog"
		case question.ViaNotification:
			return "You, from a notification"
		case question.ViaCLI:
			return "You, on the command line"
		case question.ViaWeb:
			return "You, in the web page"
		case question.ViaElicitation:
			return "You, in the agent's own prompt"
		}
		return "You"
	case question.ByRule:
		if r.RuleID != "" {
			return "Rule " + r.RuleID
		}
		return "A rule"
	case question.ByTimeout:
		return "Timeout"
	case question.ByAgent:
		if r.Reason == question.ReasonHostDisconnected {
			return "Nobody: the remote host disconnected"
		}
		return "The agent"
	case question.ByApp:
		if r.Reason == question.ReasonStopped {
			return "Asktray, when it stopped"
		}
		return "Asktray"
	}
	return string(r.DecidedBy)
}
