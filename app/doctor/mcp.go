package doctor

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/asktray/asktray/app/clientsetup"
)

// checkMCP checks client's asktray MCP entry: an HTTP one must name the
// app's URL and carry the current token, a stdio one must run this binary's
// 'asktray stdio' with this data dir.
func checkMCP(ctx context.Context, r *Report, env Env, client string) {
	t, err := clientsetup.Build(client, env.Sys, env.DataDir, env.Server, true)
	if err != nil {
		r.add(Line{Status: Problem, Client: client, What: "MCP", Text: err.Error()})
		return
	}
	f, err := t.Installed()
	if err != nil {
		r.add(Line{Status: Problem, Client: client, What: "MCP", File: f.Path,
			Text: fmt.Sprintf("cannot read it (%v): fix the file, then run 'asktray config %s --write'", err, client)})
		return
	}
	defer checkProjectMCP(ctx, r, env, client, f.Path)
	if f.Key == "" {
		r.add(Line{Status: Unused, Client: client, What: "MCP", File: f.Path, Text: "no asktray entry"})
		return
	}
	fix := fmt.Sprintf("run 'asktray config %s --write'", client)
	lines := mcpHTTP(ctx, env, client, f, fix)
	if lines == nil {
		lines = mcpStdio(ctx, env, client, f, fix+" (add --stdio to keep it a stdio entry)")
	}
	for _, l := range lines {
		l.Client, l.What, l.File = client, "MCP", f.Path
		if l.Key == "" {
			l.Key = f.Key
		}
		r.add(l)
	}
	if client == "gemini-cli" {
		geminiTrust(r, env, f)
	}
}

// mcpHTTP checks an entry that connects over HTTP; it returns nil when the
// entry has no URL.
func mcpHTTP(ctx context.Context, env Env, client string, f clientsetup.Found, fix string) []Line {
	urlKey := ""
	for _, k := range []string{"url", "serverUrl", "httpUrl"} {
		if s, ok := f.Entry[k].(string); ok && s != "" {
			urlKey = k
			break
		}
	}
	if urlKey == "" {
		return nil
	}
	var out []Line
	got := f.Entry[urlKey].(string)
	if env.Server.URL != "" && !sameEndpoint(got, env.Server.URL) {
		where := "Asktray serves MCP at " + env.Server.URL
		if !env.Server.Running {
			where = "the mcp_port setting says " + env.Server.URL
		}
		out = append(out, Line{Status: Problem, Key: f.Key + "." + urlKey, Text: fmt.Sprintf("is %s, but %s: %s", got, where, fix)})
	}
	if client == "gemini-cli" && urlKey == "httpUrl" {
		out = append(out, Line{Status: Note, Key: f.Key + ".httpUrl",
			Text: "Gemini CLI 0.61 calls httpUrl deprecated; " + fix + " to write url with type \"http\""})
	}
	out = append(out, tokenLines(env, client, f, fix)...)
	if slices.ContainsFunc(out, func(l Line) bool { return l.Status == Problem }) {
		return out
	}
	fine := "connects to " + got + " with the current token"
	if l, ok := probe(ctx, env, got, f, fix); !ok {
		return append(out, l)
	} else if l.Text != "" {
		fine = l.Text
	}
	return append([]Line{{Status: Fine, Text: fine}}, out...)
}

// probe asks the app at u whether it takes the entry's token (Env.Probe).
// It returns a Problem line and false when it does not answer or refuses the
// token; else, with true, the fine line's text ("" when no probe was sent).
func probe(ctx context.Context, env Env, u string, f clientsetup.Found, fix string) (Line, bool) {
	headers, _ := f.Entry["headers"].(map[string]any)
	if h, ok := f.Entry["http_headers"].(map[string]any); ok {
		headers = h
	}
	_, auth, _ := authorization(headers)
	if env.Probe == nil || !env.Server.Running || auth == "" || strings.ContainsAny(auth, "${") {
		return Line{}, true
	}
	code, err := env.Probe(ctx, u, auth)
	switch {
	case err != nil:
		return Line{Status: Problem, Key: f.Key, Text: fmt.Sprintf("nothing answers at %s (%v): is Asktray listening there? %s", u, err, fix)}, false
	case code == http.StatusUnauthorized:
		return Line{Status: Problem, Key: f.Key, Text: "Asktray refuses this entry's token (401): " + fix}, false
	case code == http.StatusForbidden:
		return Line{Status: Problem, Key: f.Key, Text: "Asktray refuses the request (403: only loopback names and local clients): " + fix}, false
	}
	return Line{Text: "connects to " + u + ": Asktray answers there and takes the token"}, true
}

// HTTPProbe is the Probe the CLI uses: a POST that is not JSON, which the
// app's guard answers after its peer, Host and token checks with 415 (a
// wrong token gets 401), so that no MCP session is opened. It blocks for at
// most 5 s.
func HTTPProbe(ctx context.Context, u, authorization string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader("asktray doctor"))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", authorization)
	req.Header.Set("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// tokenLines checks the bearer token of an HTTP entry.
func tokenLines(env Env, client string, f clientsetup.Found, fix string) []Line {
	if v, ok := f.Entry["bearer_token_env_var"].(string); ok && v != "" { // Codex
		return []Line{{Status: Note, Key: f.Key + ".bearer_token_env_var", Text: "the token comes from $" + v + ", which this check does not read"}}
	}
	hk := "headers"
	if client == "codex" {
		hk = "http_headers"
	}
	headers, _ := f.Entry[hk].(map[string]any)
	name, auth, ok := authorization(headers)
	key := f.Key + "." + hk + "." + name
	switch {
	case !ok:
		return []Line{{Status: Problem, Key: key, Text: "is missing, so Asktray refuses the client: " + fix}}
	case strings.ContainsAny(auth, "${"):
		return []Line{{Status: Note, Key: key, Text: "comes from the environment (" + auth + "), which this check does not read"}}
	case env.Server.Token != "" && auth != "Bearer "+env.Server.Token:
		return []Line{{Status: Problem, Key: key, Text: "holds an old token (not the one in the data dir), so Asktray refuses the client: " + fix}}
	}
	return nil
}

// mcpStdio checks an entry that runs 'asktray stdio'.
func mcpStdio(ctx context.Context, env Env, client string, f clientsetup.Found, fix string) []Line {
	var argv []string
	cmdKey := f.Key + ".command"
	switch c := f.Entry["command"].(type) {
	case string: // command + args
		argv = append([]string{c}, strings2(f.Entry["args"])...)
	case []any: // opencode: one array
		argv = strings2(c)
	}
	if len(argv) == 0 || argv[0] == "" {
		return []Line{{Status: Problem, Text: "has neither a url nor a command: " + fix}}
	}
	var out []Line
	if p := programProblem(argv[0], env.Sys.Exe); p != "" {
		out = append(out, Line{Status: Problem, Key: cmdKey, Text: p + ": " + fix})
	}
	if len(argv) < 2 || argv[1] != "stdio" {
		out = append(out, Line{Status: Problem, Key: cmdKey, Text: fmt.Sprintf("runs %q, not 'asktray stdio': %s", strings.Join(argv, " "), fix)})
	}
	if p := dataDirProblem(env, argv); p != "" {
		out = append(out, Line{Status: Problem, Key: cmdKey, Text: p + ": " + fix})
	}
	if len(out) > 0 {
		return out
	}
	fine := "runs this asktray's 'asktray stdio' with this data dir"
	if env.Test && env.Server.Running {
		if why := stdioTest(ctx, argv); why != "" {
			return []Line{{Status: Problem, Key: cmdKey, Text: fmt.Sprintf("runs this asktray's 'asktray stdio', but an MCP initialize through it got no answer from Asktray (%s): %s", why, fix)}}
		}
		fine += "; an MCP initialize through it reached Asktray"
	}
	return []Line{{Status: Fine, Text: fine}}
}

// dataDirProblem says when argv, an asktray command line, uses another data
// dir than env's.
func dataDirProblem(env Env, argv []string) string {
	dir := env.DefaultDataDir
	if i := slices.Index(argv, "--data-dir"); i >= 0 && i+1 < len(argv) {
		dir = argv[i+1]
	}
	if dir == env.DataDir {
		return ""
	}
	return fmt.Sprintf("uses the data dir %s, not %s", dir, env.DataDir)
}

func strings2(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// sameEndpoint reports whether two MCP URLs reach the same listener: the
// same port and path, and the same host or both loopback.
func sameEndpoint(a, b string) bool {
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil {
		return a == b
	}
	if ua.Port() != ub.Port() || strings.TrimSuffix(ua.Path, "/") != strings.TrimSuffix(ub.Path, "/") {
		return false
	}
	return ua.Hostname() == ub.Hostname() || loopback(ua.Hostname()) && loopback(ub.Hostname())
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// authorization finds the Authorization header in headers, however the
// person spelled its name (HTTP header names are case-insensitive).
func authorization(headers map[string]any) (name, value string, ok bool) {
	for k, v := range headers {
		if s, isStr := v.(string); isStr && strings.EqualFold(k, "Authorization") {
			return k, s, true
		}
	}
	return "Authorization", "", false
}
