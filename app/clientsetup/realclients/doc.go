// Package realclients checks the MCP entries that 'asktray config CLIENT
// --write' makes with the clients themselves: Claude Code, Codex, Gemini CLI,
// opencode and Copilot CLI, at the versions pinned in package-lock.json,
// each run in a scratch HOME against a running asktray, over HTTP and
// 'asktray stdio', after a first write and after a rewrite of a file that
// holds the person's own keys. .ci/realclients.sh installs the clients into a
// cache dir kept across runs and runs these tests; without that install they
// skip (docs/testing.md, "The MCP entries, checked with the real clients").
// The package has no code of its own.
package realclients
