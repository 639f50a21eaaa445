// Package realagents runs the coding agents whose hooks Asktray answers
// (Claude Code, Codex, Copilot CLI and Gemini CLI, pinned in package-lock.json and
// installed by .ci/deps.sh) against a fake model server on loopback, with
// their hooks installed by 'asktray config AGENT --hooks --write' and a
// headless app answering. It holds tests only.
package realagents
