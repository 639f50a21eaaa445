package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/policy"
)

// matchFlags are the --match names of 'asktray rules add', as rules.json
// writes the match kinds ("tool" is every request of the action).
var matchFlags = map[string]policy.MatchKind{
	"tool": policy.MatchTool, "command": policy.MatchCommand, "prefix": policy.MatchPrefix,
	"path": policy.MatchPath, "input": policy.MatchInput,
}

// cmdRulesAdd runs 'asktray rules add --action A [--client C] [--decision
// D] [--match M --pattern P] [--cwd DIR] [--host H] [--expires T] [--note
// N]'. A deny or ask rule is added at once; an allow rule, which widens
// what is allowed, needs the person at this terminal with the login
// password, as an approval does. It blocks until the app answers.
func cmdRulesAdd(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("rules add")
	client := f.String("client", "*", "the agent's name as it asks; * is any")
	action := f.String("action", "", "the tool it asks for, such as *:Bash")
	decision := f.String("decision", string(policy.Deny), "deny, ask or allow")
	match := f.String("match", "tool", "what of the request the rule looks at: tool, command, prefix, path, input")
	pattern := f.String("pattern", "", "the command, prefix, path glob or input")
	cwd := f.String("cwd", "", "only requests run in this directory or below")
	host := f.String("host", "", "only agents on this remote host (a glob); empty: any host")
	expires := f.String("expires", "", "local time, 2006-01-02 15:04; empty: never")
	note := f.String("note", "", "a note")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("rules add: unexpected argument %q; every field is a flag (--action, --host …)", pos[0])
	}
	kind, ok := matchFlags[*match]
	if !ok {
		return usagef("rules add: --match %q is not one of tool, command, prefix, path, input", *match)
	}
	rule := policy.Rule{Client: strings.TrimSpace(*client), Action: strings.TrimSpace(*action), Decision: policy.Decision(*decision),
		Match: kind, Pattern: *pattern, Cwd: strings.TrimSpace(*cwd), Host: strings.TrimSpace(*host), Note: strings.TrimSpace(*note),
		Scope: policy.ScopeAlways}
	if *expires != "" {
		e, err := time.ParseInLocation("2006-01-02 15:04", strings.TrimSpace(*expires), time.Local)
		if err != nil {
			return usagef("rules add: --expires %q: write a local time as 2006-01-02 15:04, or leave it out for never", *expires)
		}
		rule.Expires = e
	}
	if err := rule.Validate(); err != nil {
		return usagef("rules add: %v", err)
	}
	c, _, err := connect(f)
	if err != nil {
		return err
	}
	added, err := addRule(ctx, c, rule)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "Added rule %s: %s %s for %s, %s.\n", added.ID, added.Decision, added.Action, added.Client, added.MatchText())
	return nil
}

// addRule adds rule; for an allow rule the app asks for the person's login
// password, which addRule reads from the controlling terminal with echo
// off, as removeRule does. It blocks until the app answers.
func addRule(ctx context.Context, c *control.Client, rule policy.Rule) (policy.Rule, error) {
	r, err := c.AddRule(ctx, rule, "")
	if ae, ok := errors.AsType[*control.APIError](err); !ok || ae.Code != "needs_password" {
		return r, explainAddError(err)
	}
	t, terr := openTerminal(ctx)
	if terr != nil {
		return r, fmt.Errorf("refused: adding an allow rule needs your login password on a terminal, and this command has none (%w); the rule is not added", terr)
	}
	defer t.Close()
	t.printf("An allow rule answers yes for you: %s for %s, %s.\n", rule.Action, rule.Client, rule.MatchText())
	pw, ok, err := t.readPassword("To add it, type your login password (Esc to leave it); it is not shown. ")
	t.printf("\n")
	if err != nil {
		return r, err
	}
	if !ok {
		return r, errors.New("not confirmed; the rule is not added")
	}
	r, err = c.AddRule(ctx, rule, pw)
	return r, explainAddError(err)
}

// explainAddError says that a refused rule was not added.
func explainAddError(err error) error {
	if ae, ok := errors.AsType[*control.APIError](err); ok {
		switch ae.Code {
		case "needs_person", "needs_password", "wrong_password", "locked":
			m := strings.ReplaceAll(ae.Message, "the question stays pending", "the rule is not added")
			if !strings.Contains(m, "the rule is not added") {
				m += "; the rule is not added"
			}
			ae.Message = "refused: " + m
		}
		return ae
	}
	return err
}
