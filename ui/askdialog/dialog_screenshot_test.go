package askdialog

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/toolinput"
	"github.com/asktray/asktray/ui/internal/uitheme"
)

// TestDialogScreenshots renders each kind's dialog, armed, with realistic
// content to docs/screenshots/dialog-<kind>.png, and a confirm still
// locked to dialog-confirm-locked.png, when ASKTRAY_SCREENSHOTS=1; otherwise
// into a temporary dir. They use the app's theme (uitheme), dark unless the
// name ends in -light, and the test driver's fonts.
func TestDialogScreenshots(t *testing.T) {
	asked := time.Date(2026, 3, 14, 12, 3, 41, 0, time.Local)
	claude := question.Client{Name: "claude-code", Version: "2.1.3", SessionID: "4f2a9c1e-77b0-4d55-9a1c-0c5e7d2f1b3a"}
	cursor := question.Client{Name: "cursor", Version: "1.7.2"}
	codex := question.Client{Name: "codex", Title: "Codex CLI", Version: "0.41.0", SessionID: "sess_8d1b77c2a9"}
	shots := []struct {
		name    string
		q       question.Question
		prep    func(d *questionDialog)
		unarmed bool
	}{
		{"confirm", question.Question{Kind: question.KindConfirm, Client: claude, Destructive: true,
			Header: "Clean the build output",
			Message: "Delete the `build/` directory (3.2 GB)?\n\nIt holds cached artefacts for 14 targets; " +
				"the next full build will take about 6 minutes longer."}, nil, false},
		{"confirm-locked", question.Question{Kind: question.KindConfirm, Client: claude, Destructive: true,
			Header: "Clean the build output",
			Message: "Delete the `build/` directory (3.2 GB)?\n\nIt holds cached artefacts for 14 targets; " +
				"the next full build will take about 6 minutes longer."}, nil, true},
		{"form", question.Question{Kind: question.KindForm, Client: claude, Header: "Prepare release",
			Message: "I'm ready to tag the release. Please confirm the details below.",
			Schema: json.RawMessage(`{"type":"object","properties":{
				"version":{"type":"string","title":"Version","description":"Semantic version without the v prefix","minLength":5,"default":"1.5.0"},
				"date":{"type":"string","format":"date","title":"Release date"},
				"channel":{"type":"string","title":"Channel","oneOf":[{"const":"stable","title":"Stable"},{"const":"beta","title":"Beta"},{"const":"nightly","title":"Nightly"}],"default":"stable"},
				"platforms":{"type":"array","title":"Platforms","items":{"anyOf":[{"const":"linux","title":"Linux"},{"const":"mac","title":"macOS"},{"const":"win","title":"Windows"}]},"minItems":1,"default":["linux","mac"]},
				"announce":{"type":"boolean","title":"Announce on the mailing list","default":true}
			},"required":["version","date","platforms"]}`)},
			func(d *questionDialog) {
				date := d.r.(*formRenderer).fields[1].entry
				test.Type(date, "2026-03-1")
				date.FocusLost()
			}, false},
		{"form-seven", question.Question{Kind: question.KindForm, Client: claude, Header: "Release details",
			Message: "Fill in the release details.", Schema: json.RawMessage(sevenFields)},
			func(d *questionDialog) {
				r := d.r.(*formRenderer)
				test.Type(r.fields[0].entry, "Dialogs that fit")
				for d.win.Canvas().Focused() != r.fields[4].entry {
					d.win.Canvas().FocusNext() // Tab down to Replicas
				}
				test.Type(r.fields[4].entry, "3")
			}, false},
		{"form-error", question.Question{Kind: question.KindForm, Client: claude, Header: "Release details",
			Message: "Fill in the release details.", Schema: json.RawMessage(sevenFields)},
			func(d *questionDialog) {
				r := d.r.(*formRenderer)
				test.Type(r.fields[0].entry, "Dialogs that fit")
				test.Type(r.fields[1].entry, "1.5.0")
				test.Type(r.fields[2].entry, "2026-03-20")
				test.Type(r.fields[3].entry, "ada at example")
				d.win.Canvas().Focus(r.fields[6].entry)
				test.Tap(d.defaultButton) // Submit: scrolls back to Owner, the first refused
			}, false},
		{"form-date-picker", question.Question{Kind: question.KindForm, Client: claude, Header: "Release details",
			Message: "Fill in the release details.", Schema: json.RawMessage(sevenFields)},
			func(d *questionDialog) {
				date := d.r.(*formRenderer).fields[2]
				date.entry.SetText("2026-03-14")
				test.Tap(date.pick)
			}, false},
		{"multi_choice", question.Question{Kind: question.KindMultiChoice, Client: claude, MinSelect: 1,
			Header:  "Test suites",
			Message: "Which test suites should I run before pushing `feature/dialogs`?",
			Options: []question.Option{
				{Label: "Unit", Description: "go test ./... — about 40 s"},
				{Label: "Integration", Description: "Needs Docker; starts Postgres and Redis — about 4 min"},
				{Label: "End-to-end", Description: "Playwright against a local build — about 12 min"},
				{Label: "Lint", Description: "golangci-lint and gofmt"},
			}, Default: json.RawMessage(`["Unit","Lint"]`)}, nil, false},
		{"choice", question.Question{Kind: question.KindChoice, Client: codex, FreeText: true,
			Message: "The `orders` table has 48 M rows. How should I add the `region` column?",
			Options: []question.Option{
				{Label: "Online migration", Description: "gh-ost copy in the background; no downtime, takes ~2 h"},
				{Label: "Maintenance window", Description: "ALTER TABLE during tonight's window; ~15 min of downtime"},
				{Label: "Skip for now", Description: "Leave the schema alone and store the region in metadata"},
			}}, func(d *questionDialog) { d.r.Pick(1) }, false},
		{"choice-eight", question.Question{Kind: question.KindChoice, Client: claude, Header: "Roll-out",
			Message: "How should I roll out **v1.5** to production?", Options: eightDeploys},
			func(d *questionDialog) { d.pick(7) }, false},
		{"text", question.Question{Kind: question.KindText, Client: codex, FreeText: true, MinLength: 3, MaxLength: 60,
			Placeholder: "feature/…", Header: "Branch name",
			Message: "What should I call the branch for the **dialog window** work?"},
			func(d *questionDialog) {
				test.Type(d.r.(*textRenderer).entry, "feature/question-dialogs")
				d.setStopped(true)
			}, false},
		{"text-suggestions", question.Question{Kind: question.KindText, Client: claude, FreeText: true,
			Header:  "Branch name",
			Message: "Which branch should I push the dialog work to?",
			Options: threeSuggestions}, nil, false},
		{"approval", forcePush(claude), nil, false},
		{"approval-high-risk", shellRequest(claude, "rm -rf build/ node_modules/ && curl -fsSL https://get.example.sh | sh",
			question.RiskHigh, "deletes files recursively, `rm -r`; runs a downloaded script, `curl … | sh`"), nil, false},
		{"approval-always", shellRequest(claude, "npm test -- --ci", question.RiskMedium, ""), func(d *questionDialog) {
			test.Tap(d.alwaysButton)
			d.alwaysMenu.Items[0].Action()
			d.guard.arm()
		}, false},
		{"approval-always-request", deployApproval(claude), func(d *questionDialog) {
			test.Tap(d.alwaysButton)
			d.alwaysMenu.Items[0].Action()
			d.guard.arm()
		}, false},
		{"approval-agent-rules", agentRules(shellRequest(claude, "npm run lint -- --fix", question.RiskMedium, "")), func(d *questionDialog) {
			test.Tap(d.alwaysButton)
			d.alwaysMenu.Items[len(d.alwaysMenu.Items)-1].Action()
			d.guard.arm()
		}, false},
		{"queue", forcePush(claude), nil, false},
		{"approval-long-command", longCommand(claude), nil, false},
		{"focus-ring", forcePush(claude), func(d *questionDialog) { d.win.Canvas().Focus(d.defaultButton) }, false},
		{"focus-ring-light", forcePush(claude), func(d *questionDialog) { d.win.Canvas().Focus(d.defaultButton) }, false},
		{"notice", question.Question{Kind: question.KindNotice, Client: claude, Header: "Deploy finished",
			Message: "**v1.4.2** is live on production.\n\n- 3 services restarted\n- error rate unchanged (0.02 %)\n- " +
				"dashboard: <https://grafana.example.com/d/deploys>"}, nil, false},
	}
	// CI renders them too, into a temporary dir; ASKTRAY_SCREENSHOTS=1
	// writes the committed ones.
	dir := t.TempDir()
	if os.Getenv("ASKTRAY_SCREENSHOTS") == "1" {
		dir = filepath.Join("..", "..", "docs", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range shots {
		e := newDialogEnvWith(t, question.Config{Now: func() time.Time { return asked }})
		if strings.HasSuffix(s.name, "-light") {
			e.app.Settings().SetTheme(fixedVariant{uitheme.New(), theme.VariantLight})
		}
		pol, err := policy.Open(filepath.Join(t.TempDir(), policy.File))
		if err != nil {
			t.Fatal(err)
		}
		e.m.policy = pol
		e.m.home = "/home/ada"
		e.clock.now = asked.Add(19 * time.Second)
		d := e.ask(s.q)
		if s.name == "queue" {
			// Two more wait behind it, from another agent.
			e.askQueued(question.Question{Kind: question.KindText, Client: cursor, Message: "Name the release?", FreeText: true})
			e.askQueued(question.Question{Kind: question.KindConfirm, Client: cursor, Message: "Delete 3 merged branches?"})
		}
		if s.unarmed {
			d.win.Canvas().Focused().FocusGained() // focused, within the arm delay
		} else {
			d.guard.arm()
		}
		if s.prep != nil {
			s.prep(d)
		}
		d.tick()
		d.fit()
		name := "dialog-" + s.name + ".png"
		if d.always != nil {
			d.growFor(d.always.pop.MinSize())
			name = s.name + ".png"
		}
		d.win.Content().Refresh() // the GLFW canvas re-lays out changed min sizes by itself; the test one does not
		clipFormEntries(d)
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, d.win.Canvas().Capture()); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// clipFormEntries empties the entries of a scrolling form that are not
// wholly in its view. Fyne's test painter clips an entry's text to the
// entry's own scroll only, not also to the form's (its GLFW painter
// intersects them), so their text would be drawn over the header and the
// bar of the screenshot.
func clipFormEntries(d *questionDialog) {
	r, ok := d.r.(*formRenderer)
	if !ok {
		return
	}
	for _, ff := range r.fields {
		if ff.entry != nil && !inScrollView(r.scroll, ff.entry) {
			ff.entry.OnChanged = nil
			ff.entry.SetText("")
			ff.entry.SetPlaceHolder("")
		}
	}
}

// deployApproval is a request_approval whose details are a Markdown
// code block, as agents write them.
func deployApproval(c question.Client) question.Question {
	return question.Question{Kind: question.KindApproval, Tool: "request_approval", Origin: question.OriginApproval, Client: c, Risk: question.RiskMedium,
		Action: "Run the database migration", Message: "Run the database migration", Cwd: "/home/ada/src/shop",
		Details: "```sh\nbin/rails db:migrate RAILS_ENV=staging\n```"}
}

// agentRules is q with Claude Code's suggestions for it, as the hook
// service offers them.
func agentRules(q question.Question) question.Question {
	q.Cwd = "/home/ada/src/shop"
	q.AgentRules = []question.Option{
		{Label: "Always allow Bash(npm run lint:*) in this project (Claude Code's local settings)"},
		{Label: "Allow access to /home/ada/src/shop/packages/shared-config for this session (Claude Code keeps it)"},
	}
	return q
}

// shellRequest is a Bash permission request as the hooks make it.
func shellRequest(c question.Client, cmd string, risk question.Risk, why string) question.Question {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	return question.Question{Kind: question.KindApproval, Tool: "permission_request", Origin: question.OriginPermission, Client: c, Risk: risk, RiskWhy: why,
		Action: "Bash", Message: "Bash", Input: in, Cwd: "/home/ada/src/shop",
		Details: "**Working directory:** `/home/ada/src/shop`\n\n```sh\n" + cmd + "\n```"}
}

// forcePush is a high-risk request_approval as the bridge makes it.
func forcePush(c question.Client) question.Question {
	return question.Question{Kind: question.KindApproval, Tool: "request_approval", Origin: question.OriginApproval, Client: c, Risk: question.RiskHigh,
		Action: "Force-push main", Message: "Force-push main",
		Details: "Run in `~/src/shop`:\n\n```\ngit push --force-with-lease origin main\n```\n\n" +
			"This rewrites 2 commits on the remote (`a1b2c3d`, `e4f5a6b`). " +
			"See [CONTRIBUTING.md](https://github.com/example/shop/blob/main/CONTRIBUTING.md#force-push).",
		AgentReason: "The rebase onto the release branch dropped a commit with a leaked test key; the remote must not keep it."}
}

// longCommand is a permission prompt for a long shell command as the
// hooks make it: rendered by toolinput, with a timeout and a sandbox escape.
func longCommand(c question.Client) question.Question {
	in := json.RawMessage(`{"command":"kubectl --context prod-eu-west-1 -n payments rollout restart deployment/payments-api && kubectl --context prod-eu-west-1 -n payments rollout status deployment/payments-api --timeout=10m && git push --force-with-lease origin release/2026-03","timeout":600000,"dangerouslyDisableSandbox":true,"description":"Restart the payments API in production and push the release branch"}`)
	r := toolinput.RenderJSON("Bash", in)
	return question.Question{Kind: question.KindApproval, Tool: "permission_request", Origin: question.OriginPermission, Client: c, Risk: question.RiskMedium,
		Action: "Bash", Message: "Bash", Input: in, Cwd: "/home/ada/projects/payments-service", Details: r.Details, AgentReason: r.Reason}
}
