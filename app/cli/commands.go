package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/ellipsis"
	"github.com/asktray/asktray/app/history"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

func connect(f *flags) (*control.Client, string, error) {
	dir, err := f.dir()
	if err != nil {
		return nil, "", err
	}
	return control.NewClient(filepath.Join(dir, datadir.SocketFile)), dir, nil
}

func cmdPending(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("pending")
	asJSON := f.Bool("json", false, "JSON output")
	if err := noArgs(f, args); err != nil {
		return err
	}
	c, _, err := connect(f)
	if err != nil {
		return err
	}
	qs, err := c.PendingLinks(ctx)
	if err != nil {
		return err
	}
	if !isTerminal(stdio.Out) {
		// A link carries its question's key: only for the person's eyes on
		// a terminal, never for a pipe an agent may be reading.
		for i := range qs {
			qs[i].URL = ""
		}
	}
	if *asJSON {
		if qs == nil {
			qs = []control.PendingQuestion{}
		}
		return writeJSON(stdio, qs)
	}
	if len(qs) == 0 {
		fmt.Fprintln(stdio.Out, "No pending questions.")
		return nil
	}
	tw := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tASKED\tCLIENT\tKIND\tTIME LEFT\tQUESTION")
	now := time.Now()
	for _, q := range qs {
		left := q.Deadline.Sub(now).Round(time.Second).String()
		if !q.SnoozeUntil.IsZero() {
			left += " (snoozed)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", q.ID, ago(now, q.Created), clientCell(&q.Question), q.Kind, left, questionCell(&q.Question, 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return printLinks(stdio, qs)
}

// printLinks lists the links that answer each question in a browser.
func printLinks(stdio IO, qs []control.PendingQuestion) error {
	header := false
	for _, q := range qs {
		if q.URL == "" {
			continue
		}
		if !header {
			fmt.Fprintln(stdio.Out, "\nAnswer in a browser (each link works until its question ends):")
			header = true
		}
		if _, err := fmt.Fprintf(stdio.Out, "  %s  %s\n", q.ID, q.URL); err != nil {
			return err
		}
	}
	return nil
}

// ParseAnswer turns the answer command's flags into a request. Exactly one of
// accept (JSON), decline and cancel must be given.
func ParseAnswer(accept string, acceptSet, decline, cancel bool, note string) (control.AnswerRequest, error) {
	n := 0
	for _, b := range []bool{acceptSet, decline, cancel} {
		if b {
			n++
		}
	}
	if n != 1 {
		return control.AnswerRequest{}, usagef("give exactly one of --accept VALUE, --decline, --cancel")
	}
	req := control.AnswerRequest{Note: note}
	switch {
	case decline:
		req.Action = question.Decline
	case cancel:
		req.Action = question.Cancel
	default:
		req.Action = question.Accept
		v := strings.TrimSpace(accept)
		if !json.Valid([]byte(v)) {
			return req, usagef(`--accept: %q is not JSON; quote strings, e.g. --accept '"yes"' or --accept '["a","b"]'`, accept)
		}
		req.Value = json.RawMessage(v)
	}
	return req, nil
}

func cmdAnswer(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("answer")
	accept := f.String("accept", "", "accept with this JSON value")
	decline := f.Bool("decline", false, "decline the question")
	cancel := f.Bool("cancel", false, "dismiss the question")
	note := f.String("note", "", "a note for the agent")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if len(pos) == 0 && !set["accept"] && !*decline && !*cancel && !set["note"] {
		return walkPending(ctx, f)
	}
	if len(pos) != 1 {
		return usagef("answer takes one question ID, or none to go through the pending questions on your terminal")
	}
	req, err := ParseAnswer(*accept, set["accept"], *decline, *cancel, *note)
	if err != nil {
		return err
	}
	c, _, err := connect(f)
	if err != nil {
		return err
	}
	it, err := answerOne(ctx, c, pos[0], req)
	if err != nil {
		return explainAnswerError(err)
	}
	fmt.Fprintf(stdio.Out, "%s: %s\n", it.Question.ID, it.Result.Outcome)
	return nil
}

// walkPending goes through the pending questions on the controlling terminal.
func walkPending(ctx context.Context, f *flags) error {
	c, _, err := connect(f)
	if err != nil {
		return err
	}
	if _, err := c.Status(ctx); err != nil {
		return err
	}
	t, err := openTerminal(ctx)
	if err != nil {
		return fmt.Errorf("'asktray answer' without an ID asks on your terminal, and there is none (%w); %s", err, noTerminalHelp)
	}
	defer t.Close()
	return walk(ctx, c, t)
}

// answerOne sends req to question id. An answer that approves first shows
// the question on the controlling terminal and needs the person's login
// password there (unless that terminal gave it within the grace period);
// without a terminal it is refused and the question stays pending.
func answerOne(ctx context.Context, c *control.Client, id string, req control.AnswerRequest) (control.Item, error) {
	it, err := c.Get(ctx, id)
	if err != nil {
		return it, err
	}
	if !it.Question.Approves(question.Response{Action: req.Action, Value: req.Value}) {
		return c.Answer(ctx, id, req)
	}
	if it.Result != nil {
		return c.Answer(ctx, id, req) // the app says it is too late
	}
	if why := present.Unseen(&it.Question); why != "" {
		return it, fmt.Errorf("refused, the question stays pending: %s", why)
	}
	t, err := openTerminal(ctx)
	if err != nil {
		return it, fmt.Errorf("approving needs you at a terminal, and this command has none (%w); the question stays pending: %s", err, noTerminalHelp)
	}
	defer t.Close()
	showQuestion(t, control.PendingQuestion{Question: it.Question}, 1, 1)
	return approve(ctx, c, t, id, req)
}

// errNotConfirmed: the person went back at the password prompt.
var errNotConfirmed = errors.New("not confirmed; the question stays pending")

// approve sends req, an answer that approves, as confirmed on terminal t.
// When the app says this terminal needs the password (it is not within a
// grace period), it asks for it with echo off and sends it along. It blocks
// until the person types and the app has checked.
func approve(ctx context.Context, c *control.Client, t *terminal, id string, req control.AnswerRequest) (control.Item, error) {
	req.TerminalConfirmed = true
	it, err := c.Answer(ctx, id, req)
	var ae *control.APIError
	if !errors.As(err, &ae) || ae.Code != "needs_password" {
		return it, err
	}
	pw, ok, err := t.readPassword("To allow, type your login password (Esc to go back); it is not shown… ")
	if err != nil {
		return it, err
	}
	if !ok {
		return it, errNotConfirmed
	}
	req.Password = pw
	return c.Answer(ctx, id, req)
}

func explainAnswerError(err error) error {
	var ae *control.APIError
	if !errors.As(err, &ae) {
		return err
	}
	switch ae.Code {
	case "invalid":
		ae.Message = "answer refused, the question stays pending: " + ae.Message
	case "not_found":
		ae.Message = "no such question: " + ae.Message
	case "not_pending":
		ae.Message = "too late: " + ae.Message
	case "needs_person", "needs_password", "wrong_password", "locked", "unseen":
		ae.Message = "refused: " + ae.Message
	}
	return ae
}

func cmdSnooze(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("snooze")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("snooze takes a question ID and a duration such as 5m, 1h or tomorrow")
	}
	until, err := ParseSnooze(pos[1], time.Now())
	if err != nil {
		return err
	}
	c, _, err := connect(f)
	if err != nil {
		return err
	}
	it, err := c.Snooze(ctx, pos[0], until)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "%s: snoozed until %s\n", it.Question.ID, it.Question.SnoozeUntil.Local().Format("Mon 15:04"))
	return nil
}

// ParseSnooze turns a duration ("90s", "5m", "1h30m") or "tomorrow" (09:00
// local time on the next day) into the time to snooze until.
func ParseSnooze(s string, now time.Time) (time.Time, error) {
	if s == "tomorrow" {
		y, m, d := now.Date()
		return time.Date(y, m, d+1, 9, 0, 0, 0, now.Location()), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return time.Time{}, usagef("snooze: %q is not a positive duration such as 5m, 1h or tomorrow", s)
	}
	if d > question.MaxTimeout {
		return time.Time{}, usagef("snooze: %s is more than the limit of %s", d, question.MaxTimeout)
	}
	return now.Add(d), nil
}

func cmdHistory(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("history")
	outcome := f.String("outcome", "", "only these outcomes (comma-separated; pending too)")
	verdict := f.String("verdict", "", "only these verdicts (comma-separated: allowed, denied, answered, declined, cancelled, rule_allowed, rule_denied, by_rule, timed_out, withdrawn, away, interrupted, pending)")
	client := f.String("client", "", "only this client")
	host := f.String("host", "", "only the agents of this remote host ('.' for this machine's own)")
	kind := f.String("kind", "", "only this kind")
	search := f.String("search", "", "full-text search")
	limit := f.Int("limit", 20, "at most this many rows (1..1000); --export writes every row")
	asJSON := f.Bool("json", false, "JSON output")
	export := f.String("export", "", "write every matching question as json or csv")
	if err := noArgs(f, args); err != nil {
		return err
	}
	if *limit < 1 || *limit > 1000 {
		return usagef("--limit: must be between 1 and 1000, got %d", *limit)
	}
	switch strings.ToLower(*export) {
	case "", history.FormatJSON, history.FormatCSV:
	default:
		return usagef("--export: %q is not json or csv", *export)
	}
	if *export != "" && *asJSON {
		return usagef("give --json or --export, not both")
	}
	c, _, err := connect(f)
	if err != nil {
		return err
	}
	hq := control.HistoryQuery{Client: *client, Host: *host, Kind: *kind, Search: *search, Limit: *limit}
	if *outcome != "" {
		hq.Outcomes = strings.Split(*outcome, ",")
	}
	if *verdict != "" {
		hq.Verdicts = strings.Split(*verdict, ",")
	}
	if *export != "" {
		// The app holds the store; page through it over the control socket.
		// Export sets the cursor and page size; the filter is hq's.
		list := history.ListerFunc(func(ctx context.Context, hf history.Filter) (history.Page, error) {
			q := hq
			q.Cursor, q.Limit = hf.Cursor, hf.Limit
			page, err := c.History(ctx, q)
			if err != nil {
				return history.Page{}, err
			}
			out := history.Page{Records: make([]history.Record, 0, len(page.Items)), Next: page.Next}
			for _, it := range page.Items {
				out.Records = append(out.Records, history.Record{Question: it.Question, Result: it.Result})
			}
			return out, nil
		})
		_, err := history.Export(ctx, list, history.Filter{}, *export, stdio.Out)
		return err
	}
	page, err := c.History(ctx, hq)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdio, page.Items)
	}
	return printHistory(stdio, page.Items)
}

// URLInfo is what 'asktray url --json' prints.
type URLInfo struct {
	URL   string `json:"url"`
	Token string `json:"token"`
}

func cmdURL(ctx context.Context, args []string, stdio IO) error {
	f := newFlags("url")
	asJSON := f.Bool("json", false, "JSON output")
	if err := noArgs(f, args); err != nil {
		return err
	}
	c, dir, err := connect(f)
	if err != nil {
		return err
	}
	st, err := c.Status(ctx)
	if err != nil {
		return err
	}
	tok, err := os.ReadFile(filepath.Join(dir, datadir.TokenFile))
	if err != nil {
		return fmt.Errorf("read token: %w", err)
	}
	info := URLInfo{URL: st.URL, Token: strings.TrimSpace(string(tok))}
	if *asJSON {
		return writeJSON(stdio, info)
	}
	fmt.Fprintf(stdio.Out, "%s\nAuthorization: Bearer %s\n", info.URL, info.Token)
	return nil
}

func noArgs(f *flags, args []string) error {
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	return nil
}

// oneArg parses args with f and returns its one positional argument, or
// a usage error saying usage when there is not exactly one.
func oneArg(f *flags, args []string, usage string) (string, error) {
	pos, err := f.parse(args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", usagef("%s", usage)
	}
	return pos[0], nil
}

// writeJSON prints v as indented JSON with every invisible character
// escaped (question.EscapeJSON), so that an agent's text cannot drive the
// terminal that reads it.
func writeJSON(stdio IO, v any) error {
	js, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode json: %w", err)
	}
	_, err = stdio.Out.Write(append(question.EscapeJSON(js), '\n'))
	return err
}

// questionCell is how the tables of pending questions and of the history
// name a question: present.LineName (an agent tool's approval by what it
// would do, "npm test in ~/src/shop"; Markdown taken out), safe for a
// terminal.
func questionCell(q *question.Question, n int) string {
	home, _ := os.UserHomeDir()
	return safe(present.LineName(q, home, n))
}

// clientCell is how the tables of pending questions and of the history
// show who asked: the client's title or name and the host it runs on
// (present.Who), visible, on one line.
func clientCell(q *question.Question) string { return oneLine(present.Who(q), 40) }

// oneLine returns the first line of s, cut to n characters with an ellipsis,
// with its control characters replaced (see safe).
func oneLine(s string, n int) string {
	s = safe(strings.TrimSpace(s))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return ellipsis.Cut(s, n)
}

func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	default:
		return t.Local().Format("2006-01-02 15:04")
	}
}
