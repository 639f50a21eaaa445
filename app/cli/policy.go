package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/policy"
)

// cmdAway runs 'asktray away on|off|status'.
func cmdAway(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("away")
	arg, err := oneArg(f, args, "away takes one of on, off, status")
	if err != nil {
		return err
	}
	c, _, err := connect(f)
	if err != nil {
		return err
	}
	var st control.AwayStatus
	switch arg {
	case "on", "off":
		st, err = c.SetAway(ctx, arg == "on")
	case "status":
		st, err = c.Away(ctx)
	default:
		return usagef("away: %q is not one of on, off, status", arg)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdio.Out, describeAway(st))
	return nil
}

func describeAway(st control.AwayStatus) string {
	var s string
	switch {
	case !st.Away:
		s = "Away: off. New questions open their dialogs."
	case st.Mode == policy.AwayReject:
		s = "Away: on. New questions are rejected automatically (auto_rejected, reason away); rules still apply."
	case st.Mode == policy.AwayHandback:
		s = "Away: on. New questions go back to the agent, to ask you in its own chat (needs_user_input); approvals and destructive confirmations wait silently; rules still apply."
	default:
		s = "Away: on. New questions wait silently, with no dialog or notification; their deadlines still apply."
	}
	if st.Away && !st.Until.IsZero() {
		s += " Until " + st.Until.Local().Format("Mon 15:04") + "."
	}
	if st.Schedule != "" {
		s += " Every week (Settings › Away every week): " + st.Schedule + "."
	}
	return s
}

// cmdRules runs 'asktray rules [--json]', 'asktray rules rm ID' and
// 'asktray rules add …' (cmdRulesAdd).
func cmdRules(ctx context.Context, args []string, stdio IO) error {
	if len(args) > 0 && args[0] == "add" {
		return cmdRulesAdd(ctx, args[1:], stdio)
	}
	f := newFlags("rules")
	asJSON := f.Bool("json", false, "JSON output")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	c, _, err := connect(f)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0:
	case pos[0] == "rm" && len(pos) == 2:
		r, err := removeRule(ctx, c, pos[1])
		if ae, ok := errors.AsType[*control.APIError](err); ok && ae.Code == "not_found" {
			ae.Message = fmt.Sprintf("no rule with id %q; 'asktray rules' lists them", pos[1])
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdio.Out, "Removed rule %s (%s %s for %s).\n", r.ID, r.Decision, r.Action, r.Client)
		return nil
	case pos[0] == "rm":
		return usagef("rules rm takes one rule ID")
	default:
		return usagef("unexpected argument %q; use 'rules', 'rules add …' or 'rules rm ID'", pos[0])
	}
	rs, err := c.Rules(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		if rs == nil {
			rs = []policy.Rule{}
		}
		return writeJSON(stdio, rs)
	}
	if len(rs) == 0 {
		fmt.Fprintln(stdio.Out, "No rules.")
		return nil
	}
	return writeRules(stdio.Out, rs, time.Now())
}

// writeRules writes rs as the table of 'asktray rules': a rule scoped to a
// remote host names it under HOST (any: every host, this machine's too),
// so MATCHES leaves it out.
func writeRules(w io.Writer, rs []policy.Rule, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tDECISION\tCLIENT\tACTION\tMATCHES\tHOST\tSCOPE\tEXPIRES\tNOTE")
	for _, r := range rs {
		exp := "never"
		switch {
		case r.Expired(now):
			exp = "expired"
		case !r.Expires.IsZero():
			exp = r.Expires.Local().Format("2006-01-02 15:04")
		}
		dec := string(r.Decision)
		if r.HighRisk {
			dec += " (high risk)"
		}
		host, local := "any", r
		if r.Host != "" {
			host, local.Host = r.Host, ""
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, dec, oneLine(r.Client, 30), oneLine(r.Action, 60),
			oneLine(local.MatchText(), 60), oneLine(host, 40), r.Scope, exp, oneLine(r.Note, 40))
	}
	return tw.Flush()
}

// removeRule removes rule id. Removing a deny or ask rule can allow what it
// denied or sent to the person,
// so the app then wants what an approval wants: this command in the
// foreground of a terminal and the login password (or that terminal's grace
// period). When the app asks for the password, removeRule reads it from the
// controlling terminal with echo off and sends it along. It blocks until
// the app answers (PAM takes about two seconds to refuse a wrong password).
func removeRule(ctx context.Context, c *control.Client, id string) (policy.Rule, error) {
	r, err := c.RemoveRule(ctx, id, "")
	if ae, ok := errors.AsType[*control.APIError](err); !ok || ae.Code != "needs_password" {
		return r, explainRuleError(err)
	}
	t, terr := openTerminal(ctx)
	if terr != nil {
		return r, fmt.Errorf("refused: removing a deny or ask rule needs your login password on a terminal, and this command has none (%w); the rule stays", terr)
	}
	defer t.Close()
	t.printf("Removing rule %s can allow what it denies or asks you about.\n", id)
	pw, ok, err := t.readPassword("To remove it, type your login password (Esc to keep it); it is not shown. ")
	t.printf("\n")
	if err != nil {
		return r, err
	}
	if !ok {
		return r, errors.New("not confirmed; the rule stays")
	}
	r, err = c.RemoveRule(ctx, id, pw)
	return r, explainRuleError(err)
}

// explainRuleError says that a refused rule change left the rule as it was.
func explainRuleError(err error) error {
	if ae, ok := errors.AsType[*control.APIError](err); ok {
		switch ae.Code {
		case "needs_person", "needs_password", "wrong_password", "locked":
			// The password check words its refusals for questions.
			m := strings.ReplaceAll(ae.Message, "the question stays pending", "the rule stays")
			if !strings.Contains(m, "the rule stays") {
				m += "; the rule stays"
			}
			ae.Message = "refused: " + m
		}
		return ae
	}
	return err
}
