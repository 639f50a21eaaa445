package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tokenMask stands for the bearer token wherever the Connect window shows
// it, until Show: a shared screen or a screenshot must not give it away.
const tokenMask = "••••••••••••••••" //nolint:gosec // G101 (named token): the bullets shown in the token's place, not a credential

// newTokenRow makes the token row: the token masked, Show (Hide once
// shown) and Copy token, which copies the real token either way.
func (c *connectWindow) newTokenRow() {
	c.token = widget.NewLabel(tokenMask)
	c.token.TextStyle = fyne.TextStyle{Monospace: true}
	c.token.Truncation = fyne.TextTruncateEllipsis
	c.showToken = widget.NewButtonWithIcon("Show", theme.VisibilityIcon(), c.toggleToken)
	c.copyToken = widget.NewButtonWithIcon("Copy token", theme.ContentCopyIcon(), func() {
		_, tok := c.endpoint()
		c.app.Clipboard().SetContent(tok)
	})
	c.tokenRow = container.NewBorder(nil, nil, widget.NewLabel("Token"), container.NewHBox(c.showToken, c.copyToken), c.token)
}

// showTokenRow shows the token row for token as masked or not; without a
// token (a run that takes none) it hides the row.
func (c *connectWindow) showTokenRow(token string) {
	if token == "" {
		c.tokenRow.Hide()
		return
	}
	c.tokenRow.Show()
	if c.reveal {
		c.token.SetText(token)
		c.showToken.SetText("Hide")
		c.showToken.SetIcon(theme.VisibilityOffIcon())
		return
	}
	c.token.SetText(tokenMask)
	c.showToken.SetText("Show")
	c.showToken.SetIcon(theme.VisibilityIcon())
}

// toggleToken shows the token in the row and in the setup, or masks it again.
func (c *connectWindow) toggleToken() {
	c.reveal = !c.reveal
	_, tok := c.endpoint()
	c.showTokenRow(tok)
	c.text.SetText(c.masked(c.shown))
}

// setText shows text as the setup, with the token in it masked unless the
// person chose Show. The copy buttons copy the unmasked entry and command.
func (c *connectWindow) setText(text string) {
	c.shown = text
	c.text.SetText(c.masked(text))
}

// masked is text with the current token replaced by tokenMask, or text as
// it is once the person chose Show.
func (c *connectWindow) masked(text string) string {
	_, tok := c.endpoint()
	if c.reveal || tok == "" {
		return text
	}
	return strings.ReplaceAll(text, tok, tokenMask)
}
