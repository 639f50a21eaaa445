package mcpbridge

import (
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/asktray/asktray/app/question"
)

// ToolNotify tells the person something; nothing comes back. The name is
// fixed: agents and user configs refer to it.
const ToolNotify = "notify"

// notifySpec is a notice: it never re-attaches, never waits, and counts
// against its own pending bound.
var notifySpec = &toolSpec{name: ToolNotify, define: notifyTool, args: func() askArgs { return new(notifyArgs) }, serve: serveAsk,
	fields: map[string]string{"message": "message"}, notice: true}

// notifyTool defines notify.
func notifyTool(name string) mcp.Tool {
	return newTool(name, "Notify the user",
		"Tell the user something without asking: a long task finished, a deploy started, you are blocked and waiting. Shows a notification and keeps a history row; returns at once. Do not use it for questions: nothing comes back.",
		input(obj{
			"message": str("What to tell the user, in Markdown. Up to 4096 characters."),
			"header":  header(),
			"timeout_seconds": obj{"type": "integer", "description": fmt.Sprintf("How long the notice stays open for the user to acknowledge, in seconds (default %d; clamped to %s).",
				noticeTimeoutSeconds, timeoutRange())},
		}, []string{"message"}, false),
		output(obj{}),
		false, false, false)
}

// noticeTimeoutSeconds is how long a notice stays open when notify's
// timeout_seconds does not say: an hour.
const noticeTimeoutSeconds = 3600

// notifyArgs is notify's arguments: it never waits, and its notice stays
// open for an hour unless timeout_seconds says otherwise.
type notifyArgs struct {
	Message        string `json:"message"`
	Header         string `json:"header"`
	TimeoutSeconds *int64 `json:"timeout_seconds"`
}

func (in *notifyArgs) toAsk() ask {
	a := ask{q: question.Question{Kind: question.KindNotice, Message: in.Message, Header: in.Header},
		common: askCommon{TimeoutSeconds: in.TimeoutSeconds, Wait: new(false)}}
	if in.TimeoutSeconds == nil {
		a.common.TimeoutSeconds = new(int64(noticeTimeoutSeconds))
	}
	return a
}
