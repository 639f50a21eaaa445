package webask

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/toolinput"
)

// TestScreenshots renders the page of a form and of an approval in headless
// Chromium at a desktop width and a phone width, side by side, into
// docs/screenshots/web-form.png and web-approval.png when
// ASKTRAY_SCREENSHOTS=1; otherwise into a temporary dir, so CI renders them
// too.
func TestScreenshots(t *testing.T) {
	dir := t.TempDir()
	if os.Getenv("ASKTRAY_SCREENSHOTS") == "1" {
		dir = filepath.Join("..", "..", "docs", "screenshots")
	}
	claude := question.Client{Name: "claude-code", Version: "2.1.3", SessionID: "4f2a9c1e-77b0-4d55-9a1c-0c5e7d2f1b3a"}
	release := `{"type":"object","properties":{
		"version":{"type":"string","title":"Version","description":"The tag to create, without the v.","minLength":5},
		"build":{"type":"integer","title":"Build number","minimum":1},
		"channel":{"type":"string","title":"Channel","oneOf":[{"const":"stable","title":"Stable"},{"const":"beta","title":"Beta"},{"const":"nightly","title":"Nightly"}],"default":"beta"},
		"targets":{"type":"array","title":"Targets","items":{"anyOf":[{"const":"linux","title":"Linux"},{"const":"mac","title":"macOS"},{"const":"win","title":"Windows"}]},"minItems":1},
		"announce":{"type":"boolean","title":"Announce on the mailing list","default":true}
	},"required":["version","channel","targets"]}`
	push := json.RawMessage(`{"command":"git push --force origin main","description":"I rewrote the last two commits to drop a leaked key; the remote still has them."}`)
	shots := []struct {
		file string
		q    question.Question
		fill func(ctx context.Context) error
	}{
		{"web-form.png", question.Question{Kind: question.KindForm, Client: claude, Header: "Release",
			Message: "I am about to tag the release. Fill in **what it should be**; then this runs:\n\n```sh\ngit tag -s v<version> && git push origin v<version>\n```",
			Schema:  schema(release)},
			func(ctx context.Context) error {
				err := chromedp.Do(ctx,
					chromedp.SendKeys(chromedp.CSS("#f0"), "1.4.2"),
					chromedp.SendKeys(chromedp.CSS("#f1"), "12a"),
					chromedp.Click(chromedp.CSS("#f3-0")),
				)
				if err != nil {
					return err
				}
				if _, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`button[value="accept"]`))); err != nil {
					return err
				}
				return chromedp.Do(ctx, chromedp.WaitEnabled(chromedp.CSS(`button[value="accept"]`)))
			}},
		{"web-approval.png", question.Question{Kind: question.KindApproval, Origin: question.OriginPermission, Client: claude, Risk: question.RiskHigh,
			RiskWhy: "rewrites the remote's history, `git push --force`", Action: "Bash", Message: "Bash", Input: push,
			Details: toolinput.RenderJSON("Bash", push).Details, Cwd: "/home/ada/src/asktray",
			AgentReason: toolinput.RenderJSON("Bash", push).Reason},
			func(ctx context.Context) error {
				return chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#note"), "Rebase on origin/main first."))
			}},
	}
	for _, s := range shots {
		var sides []image.Image
		for _, width := range []int64{900, 390} {
			e := newRealEnv(t)
			ctx := newBrowser(t)
			_, link := e.ask(s.q)
			opts := []chromedp.EmulateViewportOption{}
			if width < 500 {
				opts = append(opts, chromedp.EmulateMobile)
			}
			must(t, chromedp.Do(ctx,
				chromedp.EmulateViewport(width, 700, opts...),
				chromedp.Navigate(link),
				chromedp.WaitEnabled(chromedp.CSS(`button[data-default]`)),
			))
			must(t, s.fill(ctx))
			shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			must(t, err)
			img, err := png.Decode(bytes.NewReader(shot))
			must(t, err)
			sides = append(sides, img)
		}
		writeSideBySide(t, filepath.Join(dir, s.file), sides)
	}
}

// writeSideBySide puts imgs next to each other, tops aligned, on a plain
// background, and writes the PNG to path.
func writeSideBySide(t *testing.T, path string, imgs []image.Image) {
	t.Helper()
	const gap = 24
	w, h := gap, 0
	for _, img := range imgs {
		w += img.Bounds().Dx() + gap
		h = max(h, img.Bounds().Dy())
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h+2*gap))
	draw.Draw(out, out.Bounds(), image.NewUniform(color.RGBA{0xd9, 0xd9, 0xd4, 0xff}), image.Point{}, draw.Src)
	x := gap
	for _, img := range imgs {
		r := img.Bounds()
		draw.Draw(out, image.Rect(x, gap, x+r.Dx(), gap+r.Dy()), img, r.Min, draw.Src)
		x += r.Dx() + gap
	}
	var buf bytes.Buffer
	must(t, png.Encode(&buf, out))
	must(t, os.WriteFile(path, buf.Bytes(), 0o644))
}
