// Package mcpbridge serves Asktray's MCP tools: it turns tool calls into questions for the broker and outcomes into structured results, over Streamable HTTP guarded for loopback use.
package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/asktray/asktray/app/question"
)

// WindowRule sets how long a blocking call waits for clients whose name
// contains Match (case-insensitive).
type WindowRule struct {
	Match  string        `json:"match"`
	Window time.Duration `json:"window"`
}

// DefaultWindows are the blocking windows used unless settings say otherwise:
// each stays under the point where that client gives up on a tool call
// (see docs/tools-guide.md, "Waiting without losing an answer").
var DefaultWindows = []WindowRule{
	{"claude-code", 15 * time.Minute}, // resets its watchdog on every progress notification
	{"claude-ai", 50 * time.Second},   // Claude Desktop drops calls after about 60 s
	{"claude", 50 * time.Second},
	{"cursor", 270 * time.Second},             // 5 min limit
	{"visual studio code", 270 * time.Second}, // VS Code: 5 min even with progress
	{"vscode", 270 * time.Second},
	// Codex's tool_timeout_sec defaults to 300 s since mid-2026
	// (https://github.com/openai/codex/pull/28234; 60 s, then 120 s, before);
	// 'asktray config codex' also writes tool_timeout_sec = 600.
	{"codex", 270 * time.Second},
	{"windsurf", 50 * time.Second},
}

// DefaultWindow is the blocking window for clients no rule matches.
const DefaultWindow = 55 * time.Second

// MaxWaitSeconds caps get_answer's wait_seconds whatever the client.
const MaxWaitSeconds = 3600

// Config configures a Bridge.
type Config struct {
	Broker         *question.Broker
	Version        string
	Windows        []WindowRule  // nil means DefaultWindows
	DefaultWindow  time.Duration // 0 means DefaultWindow
	DefaultTimeout time.Duration // the person's deadline when a call gives none; 0 means 300 s
	ProgressEvery  time.Duration // keep-alive interval; 0 means 15 s
	Log            *slog.Logger
	// AskMode says where questions go; "" means question.AskDesktop. Desktop says
	// whether a desktop UI shows questions (auto mode prefers it).
	AskMode question.AskMode
	Desktop bool
	// MaxPending is how many questions (and, separately, notices) one
	// client session may have pending; 0 means question.DefaultMaxPending.
	MaxPending int
}

// Bridge owns the MCP server and what it remembers between calls.
type Bridge struct {
	mu        sync.RWMutex // guards cfg's Windows, DefaultWindow, DefaultTimeout, ProgressEvery, AskMode, Desktop and MaxPending
	cfg       Config
	srv       *mcpserver.MCPServer
	calls     *callTracker
	attach    *attachments
	rejecters sessionSet // sessions (or, without one, clients) that decline forms automatically
	forms     formRounds // questions out on 2026-07-28 clients' forms
	limit     pendingLimit
	handles   *handles
}

// New builds the MCP server with every tool registered, with cfg's
// settings applied as Apply applies them.
func New(cfg Config) *Bridge {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	b := &Bridge{cfg: cfg, calls: newCallTracker(), attach: newAttachments(), handles: newHandles()}
	b.Apply(cfg)
	hooks := &mcpserver.Hooks{}
	hooks.AddOnUnregisterSession(func(_ context.Context, s mcpserver.ClientSession) {
		b.rejecters.remove(s.SessionID())
	})
	b.srv = mcpserver.NewMCPServer("asktray", cfg.Version,
		mcpserver.WithHooks(hooks),
		mcpserver.WithTitle("Asktray"),
		mcpserver.WithInstructions(Instructions),
		mcpserver.WithToolCapabilities(false),
		mcpserver.WithRecovery(),
	)
	for _, spec := range toolSpecs {
		b.srv.AddTool(spec.define(spec.name), b.handler(spec))
	}
	return b
}

// MCPServer returns the underlying mcp-go server.
func (b *Bridge) MCPServer() *mcpserver.MCPServer { return b.srv }

// handler serves spec's calls: the raw arguments and the caller go to
// spec.serve.
func (b *Bridge) handler(spec *toolSpec) mcpserver.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		raw, _ := req.GetRawArguments().(json.RawMessage)
		if raw == nil && req.Params.Arguments != nil {
			raw, _ = json.Marshal(req.Params.Arguments)
		}
		c, err := b.caller(ctx, req)
		if err != nil {
			return b.result(spec, nil, err), nil
		}
		if c.modern && req.Params.RequestState != "" {
			res, err := b.resumeForm(ctx, c, spec, req)
			return b.result(spec, res, err), nil
		}
		return spec.serve(b, ctx, c, spec, raw), nil
	}
}

// result is a tool's result for res, or for err: an argument error is the
// agent's to fix, anything else is logged; both reach the agent as isError.
func (b *Bridge) result(spec *toolSpec, res *toolResult, err error) *mcp.CallToolResult {
	if err != nil {
		if ae, ok := errors.AsType[*argError](err); ok {
			return mcp.NewToolResultError(ae.msg)
		}
		b.cfg.Log.Error("tool call failed", "tool", spec.name, "err", err)
		return mcp.NewToolResultError("asktray could not handle this call: " + err.Error())
	}
	if res.input != nil {
		return res.input
	}
	return mcp.NewToolResultStructured(res, mustText(res))
}

func mustText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%+v", v)
	}
	return string(b)
}

// caller is who made a tool call, and how to reach them while it runs.
type caller struct {
	client      question.Client
	elicitation bool
	progress    mcp.ProgressToken
	cwd         string       // _meta.cwd, the client's working directory when it says
	call        *trackedCall // nil when the call did not come through the HTTP guard
	modern      bool         // the request is of MCP 2026-07-28 or later: no session
	idemKey     string       // _meta's MetaIdempotencyKey, from a caller without a session
	callOwner   string       // the asker of this call alone, for a caller without session or key
}

// caller reads who makes a call from the request itself: at MCP
// 2026-07-28 its _meta carries the client's name and capabilities, which
// hold for this request only; before, the session's initialize did. An
// error is the isError a malformed idempotency key gets.
func (b *Bridge) caller(ctx context.Context, req mcp.CallToolRequest) (caller, error) {
	var c caller
	if pi := mcpserver.RequestProtocolInfoFromContext(ctx); pi != nil && pi.Modern {
		c.modern = true
		if pi.ClientInfo != nil {
			c.client.Name, c.client.Version, c.client.Title = pi.ClientInfo.Name, pi.ClientInfo.Version, pi.ClientInfo.Title
		}
		if pi.ClientCapabilities != nil {
			c.elicitation = formElicitation(pi.ClientCapabilities.Elicitation)
		}
	} else if s := mcpserver.ClientSessionFromContext(ctx); s != nil {
		c.client.SessionID = s.SessionID()
		if ci, ok := s.(mcpserver.SessionWithClientInfo); ok {
			info := ci.GetClientInfo()
			c.client.Name, c.client.Version, c.client.Title = info.Name, info.Version, info.Title
			c.elicitation = formElicitation(ci.GetClientCapabilities().Elicitation)
		}
	}
	if req.Params.Meta != nil {
		c.progress = req.Params.Meta.ProgressToken
		c.cwd, _ = req.Params.Meta.AdditionalFields["cwd"].(string)
		if c.client.SessionID == "" {
			k, err := idempotencyKey(req.Params.Meta.AdditionalFields[MetaIdempotencyKey])
			if err != nil {
				return c, err
			}
			c.idemKey = k
		}
	}
	if c.client.SessionID == "" && c.idemKey == "" {
		c.callOwner = perCallOwner()
	}
	c.call = callFromContext(ctx)
	return c, nil
}

// formKey names c's client among those that decline forms automatically:
// its session, or without one (MCP 2026-07-28) its name.
func (c caller) formKey() string {
	if c.client.SessionID != "" {
		return c.client.SessionID
	}
	return "client\x00" + c.client.Name
}

// formElicitation reports whether e declares form mode: as form, or as {}
// (form only, MCP 2025-11-25).
func formElicitation(e *mcp.ElicitationCapability) bool {
	return e != nil && (e.Form != nil || e.URL == nil)
}

// window returns how long a blocking call from client may wait.
func (b *Bridge) window(client question.Client) time.Duration {
	b.mu.RLock()
	defer b.mu.RUnlock()
	name := strings.ToLower(client.Name)
	for _, r := range b.cfg.Windows {
		if r.Match != "" && strings.Contains(name, strings.ToLower(r.Match)) {
			return r.Window
		}
	}
	return b.cfg.DefaultWindow
}

// defaultTimeout is the person's deadline for a call that gives none.
func (b *Bridge) defaultTimeout() time.Duration {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.cfg.DefaultTimeout
}

// Apply takes cfg's settings for the calls that start from now on: the
// blocking windows, the default deadline, the keep-alive interval, the ask
// mode and whether a desktop shows questions, and the pending bound; zero
// values and a nil windows list mean the defaults. Broker, Version and Log
// are New's alone and are ignored here. New applies its Config through it,
// so start-up and a settings change take one path. It is safe to call from
// any goroutine while the server runs.
func (b *Bridge) Apply(cfg Config) {
	if cfg.Windows == nil {
		cfg.Windows = DefaultWindows
	}
	if cfg.DefaultWindow <= 0 {
		cfg.DefaultWindow = DefaultWindow
	}
	if cfg.DefaultTimeout <= 0 {
		cfg.DefaultTimeout = question.DefaultTimeout
	}
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = 15 * time.Second
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cfg.Windows, b.cfg.DefaultWindow, b.cfg.DefaultTimeout, b.cfg.ProgressEvery = cfg.Windows, cfg.DefaultWindow, cfg.DefaultTimeout, cfg.ProgressEvery
	b.cfg.AskMode, b.cfg.Desktop, b.cfg.MaxPending = cfg.AskMode, cfg.Desktop, question.ClampMaxPending(cfg.MaxPending)
}

// progressEvery is the keep-alive interval for a call that starts waiting now.
func (b *Bridge) progressEvery() time.Duration {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.cfg.ProgressEvery
}
