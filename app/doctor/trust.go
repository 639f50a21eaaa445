package doctor

// The agents' own trust state is read by each agent's entry in app/hook's
// table (hook.Spec.Trust); agentTrust hands it the file readers. Gemini CLI
// is an MCP client only:
//
//   - Gemini CLI: with folder trust on (security.folderTrust.enabled, on by
//     default in 0.61), MCP servers stay off in a folder not trusted in
//     ~/.gemini/trustedFolders.json (TRUST_FOLDER, TRUST_PARENT,
//     DO_NOT_TRUST; the longest matching path decides). Its hook fingerprints
//     (trusted_hooks.json) concern project hooks, and Asktray installs none
//     for Gemini CLI.

import (
	"os"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"

	"github.com/asktray/asktray/app/clientsetup"
	"github.com/asktray/asktray/app/hook"
)

// agentTrust adds what agent h's own switches and reviews say of the
// asktray hooks found (hook.Spec.Trust), reading its files with the
// config parsers here.
func agentTrust(r *Report, env Env, h clientsetup.Hooks, found []clientsetup.FoundHook) {
	sp, _ := hook.Lookup(h.Agent)
	if sp.Trust == nil {
		return
	}
	te := hook.TrustEnv{GOOS: env.Sys.GOOS, Home: env.Sys.Home, Getenv: env.Sys.Getenv, Cwd: env.Cwd, HooksFile: h.Path,
		ReadJSON: clientsetup.ReadJSON, ReadTOML: readTOML}
	for _, f := range found {
		te.Found = append(te.Found, installed(f))
	}
	status := map[hook.TrustStatus]Status{hook.TrustFine: Fine, hook.TrustProblem: Problem, hook.TrustNote: Note}
	for _, l := range sp.Trust(te) {
		what := l.What
		if what == "" {
			what = "trust"
		}
		r.add(Line{Status: status[l.Status], Client: string(h.Agent), What: what, File: l.File, Key: l.Key, Text: l.Text})
	}
}

// installed is f as an agent's Trust reads it.
func installed(f clientsetup.FoundHook) hook.Installed {
	return hook.Installed{Event: f.Event, Matcher: f.Matcher, HasMatcher: f.HasMatcher, Group: f.Group, Handler: f.Handler,
		Command: f.Command, Timeout: f.Timeout, Raw: f.Raw}
}

// readTOML reads a TOML file into a map; exists is false when there is
// none, and an unreadable file is no file (as Codex treats it).
func readTOML(path string) (map[string]any, bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false, nil
	}
	var doc map[string]any
	if err := toml.Unmarshal(b, &doc); err != nil {
		return nil, true, err
	}
	return doc, true, nil
}

// codexHash is Codex's trust hash of handler f (hook.CodexHash).
func codexHash(f clientsetup.FoundHook) string { return hook.CodexHash(installed(f)) }

// geminiTrust reads whether Gemini CLI trusts the folder, without which it
// keeps MCP servers off there.
func geminiTrust(r *Report, env Env, f clientsetup.Found) {
	add := func(s Status, file, key, text string) {
		r.add(Line{Status: s, Client: "gemini-cli", What: "trust", File: file, Key: key, Text: text})
	}
	m, _, err := clientsetup.ReadJSON(f.Path)
	if err != nil || env.Cwd == "" {
		return
	}
	sec, _ := m["security"].(map[string]any)
	ft, _ := sec["folderTrust"].(map[string]any)
	switch {
	case ft["enabled"] == false:
		add(Fine, f.Path, "security.folderTrust.enabled", "is false: Gemini CLI trusts every folder")
		return
	case env.Sys.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true":
		add(Fine, "", "", "GEMINI_CLI_TRUST_WORKSPACE=true: Gemini CLI trusts every folder")
		return
	}
	file := env.Sys.Getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
	if file == "" {
		file = filepath.Join(filepath.Dir(f.Path), "trustedFolders.json")
	}
	rules, _, err := clientsetup.ReadJSON(file)
	if err != nil {
		add(Problem, file, "", "Gemini CLI refuses to start with this file broken: "+err.Error())
		return
	}
	best, level := "", ""
	for p, v := range rules {
		lv, _ := v.(string)
		eff := p
		if lv == "TRUST_PARENT" {
			eff = filepath.Dir(p)
		}
		if hook.Within(env.Cwd, eff) && len(p) > len(best) {
			best, level = p, lv
		}
	}
	switch level {
	case "DO_NOT_TRUST":
		add(Problem, file, best, "is DO_NOT_TRUST, so Gemini CLI keeps MCP servers (asktray too) off in "+env.Cwd+": trust the folder (/permissions in Gemini CLI)")
	case "TRUST_FOLDER", "TRUST_PARENT":
		add(Fine, file, best, "Gemini CLI trusts "+env.Cwd)
	default:
		add(Note, file, "", env.Cwd+" is not trusted yet: Gemini CLI asks at its start there, and keeps MCP servers off until you trust it")
	}
}
