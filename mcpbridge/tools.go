package mcpbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/asktray/asktray/app/question"
)

// toolSpec is everything about one MCP tool: its name, its definition
// (schema and annotations), the arguments an ask tool decodes into, what
// the question model's fields are called in its arguments, its flags, and
// how a call is served. Each tool (or family) declares its spec in its own
// file, tool_*.go; the tool list, registration, argument decoding and
// dispatch are derived from toolSpecs.
type toolSpec struct {
	name   string
	define func(name string) mcp.Tool
	// args returns a new value of an ask tool's arguments type; nil for
	// the tools that do not ask (get_answer, cancel_question) or decode
	// their own (permission_prompt). The names a call may send are the
	// properties of the declared input schema (argNames).
	args func() askArgs
	// fields maps the question model's field names to this tool's argument
	// names, beyond commonFields, so that validation errors name what the
	// agent sent.
	fields map[string]string
	// notice marks a tool whose questions are notices: never re-attached
	// to, never waited for, bounded apart from questions.
	notice bool
	// origin is the Origin of the tool's questions; zero means
	// question.OriginAsk, an ask tool's.
	origin question.Origin
	// serve handles a call, on the caller's goroutine; it blocks while the
	// person answers. It is handed the spec itself.
	serve func(b *Bridge, ctx context.Context, c caller, spec *toolSpec, raw json.RawMessage) *mcp.CallToolResult

	declared sync.Once
	names    []string // argNames' result, once computed
}

// toolSpecs are the tools, in the order tools/list shows them.
var toolSpecs = []*toolSpec{
	askUserSpec, askConfirmSpec, askChoiceSpec, askMultiSelectSpec, askTextSpec, askFormSpec,
	approvalSpec, permissionSpec, notifySpec, getAnswerSpec, cancelQuestionSpec,
}

// ToolNames lists every tool in the order tools/list shows them: the order
// of toolSpecs.
var ToolNames = func() []string {
	names := make([]string, len(toolSpecs))
	for i, s := range toolSpecs {
		names[i] = s.name
	}
	return names
}()

// argNames returns the property names of s's declared input schema, sorted,
// so that what a call may send is exactly what tools/list tells the agent
// it takes. It may be called from any goroutine.
func (s *toolSpec) argNames() []string {
	s.declared.Do(func() {
		t := s.define(s.name)
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(t.RawInputSchema, &schema); err != nil {
			panic(fmt.Sprintf("tool %s: input schema: %v", t.Name, err)) // static schemas only
		}
		s.names = slices.Sorted(maps.Keys(schema.Properties))
	})
	return s.names
}

// decode decodes raw strictly (decodeArgs) into v, allowing the argument
// names s declares. It may be called from any goroutine.
func (s *toolSpec) decode(raw json.RawMessage, v any) error {
	return decodeArgs(raw, s.argNames(), v)
}

// parseAsk decodes the arguments of s, an ask tool. It does not block and
// may be called from any goroutine.
func (s *toolSpec) parseAsk(raw json.RawMessage) (ask, error) {
	if s.args == nil {
		return ask{}, fmt.Errorf("no ask tool %q", s.name)
	}
	in := s.args()
	if err := s.decode(raw, in); err != nil {
		return ask{}, err
	}
	return in.toAsk(), nil
}

// commonFields maps the question model's field names to the argument names
// every ask tool uses; a tool's spec (toolSpec.fields) names its own.
var commonFields = map[string]string{"message": "question", "options": "options", "min_select": "min_selections", "max_select": "max_selections", "schema": "requestedSchema"}

// selectWords finds the model's names for selection bounds inside a message.
var selectWords = regexp.MustCompile(`\b(min|max)_select\b`)

// renameField rewrites the fields named in a validation message for s.
func (s *toolSpec) renameField(msg string) string {
	msg = selectWords.ReplaceAllString(msg, "${1}_selections")
	for _, m := range []map[string]string{s.fields, commonFields} {
		for from, to := range m {
			if rest, ok := strings.CutPrefix(msg, from); ok && (rest == "" || rest[0] == ':' || rest[0] == '[' || rest[0] == '.') {
				return to + rest
			}
		}
	}
	return msg
}

func serveAsk(b *Bridge, ctx context.Context, c caller, spec *toolSpec, raw json.RawMessage) *mcp.CallToolResult {
	res, err := b.ask(ctx, c, spec, raw)
	return b.result(spec, res, err)
}

const waitNote = " If the result has status pending, the user has not answered yet: call get_answer with its question_id (do not ask again, and do not proceed without the answer). Always follow next_step."

const questionDesc = "The question, in Markdown. Say exactly what you need and why; the user may be busy. Up to 4096 characters."

// Instructions tell the model which tool fits which need.
const Instructions = `Asktray asks the person at the desk and returns their answer.
- ask_confirm: a yes/no decision, and always before a destructive or irreversible action (delete, overwrite, force-push, migrate, publish). Name the exact target and consequence; set destructive.
- ask_choice / ask_multi_select: pick one / several of 2-20 options.
- ask_user: an open question with up to 3 suggested answers.
- ask_text: free text with length limits (a name, a message, a commit text).
- ask_form: several typed fields at once (an MCP elicitation requestedSchema).
- request_approval: permission for one concrete action you are about to take (a command, a deploy, a file change): a short action title, the exact details in Markdown, a risk grade and your reason. Returns decision allow or deny; only allow means go ahead, and only with exactly what you described. The user's rules may answer it at once (rule_id).
- permission_prompt: not for you to call; Claude Code calls it through --permission-prompt-tool.
- notify: tell the person something; no answer comes back.
Every result has a status and a next_step: follow next_step. Only status answered (or auto_approved, when a rule the user made decided) carries an answer. declined, cancelled, auto_rejected (timeout, away, rule), withdrawn and interrupted all mean: you do not have permission; do not proceed as if the user agreed, and never guess an answer. needs_user_input means the user is away and wants the question asked in your own chat: ask them what message says there and use their reply.
If status is pending, the person has not answered yet: call get_answer with the question_id, as often as needed. Asking the same question again re-attaches to the open one; it does not open a second dialog.`

func annotations(title string, readOnly, destructive, idempotent bool) mcp.ToolOption {
	return mcp.WithToolAnnotation(mcp.ToolAnnotation{
		Title: title, ReadOnlyHint: &readOnly, DestructiveHint: &destructive,
		IdempotentHint: &idempotent, OpenWorldHint: new(false),
	})
}

func newTool(name, title, desc string, in, out []byte, readOnly, destructive, idempotent bool) mcp.Tool {
	t := mcp.NewToolWithRawSchema(name, desc, in)
	for _, opt := range []mcp.ToolOption{mcp.WithRawOutputSchema(out), annotations(title, readOnly, destructive, idempotent)} {
		opt(&t)
	}
	t.Title = title
	return t
}

// Tools returns the definitions of every tool, in ToolNames order. Asking
// changes nothing but the person's attention and the history, so no tool is
// destructive or open-world; the ask tools are not idempotent because each
// call may open a dialog, while re-asking the same question re-attaches.
// It builds new values on each call and may be called from any goroutine.
func Tools() []mcp.Tool {
	tools := make([]mcp.Tool, len(toolSpecs))
	for i, s := range toolSpecs {
		tools[i] = s.define(s.name)
	}
	return tools
}

// header is the optional heading every asking tool takes.
func header() obj {
	return strMax("Optional short heading shown above the question, up to 64 characters.", 64)
}
