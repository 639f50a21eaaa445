package present

import (
	"strings"

	"github.com/asktray/asktray/app/question"
)

// NoDetails is the Markdown body of an approval whose message only repeats
// its action and that has no details.
const NoDetails = "*No details given.*"

// TitleAndBody returns q's bold title and its Markdown message, as the
// dialog, the history and the question page show them under the headline
// (Headline): the header and the message (no title for an agent's own
// notification, whose header is the headline), or for an approval its action
// (none for an agent tool's, which the headline names) and its details, so
// the action is never shown twice. Both are shown as VisibleCopy makes them:
// invisible characters as markers, runs of empty lines collapsed.
func TitleAndBody(q question.Question) (title, body string) {
	q = VisibleCopy(q)
	title, body = q.Header, q.Message
	if IsAgentNotice(&q) {
		return "", body // the headline is its header
	}
	if q.Kind != question.KindApproval || q.Action == "" {
		return title, body
	}
	title = q.Action
	if IsToolApproval(&q) {
		title = "" // the headline says what the tool does
	}
	switch {
	case strings.TrimSpace(q.Details) != "":
		body = q.Details
	case strings.TrimSpace(q.Message) == strings.TrimSpace(q.Action):
		body = NoDetails
	}
	return title, body
}
