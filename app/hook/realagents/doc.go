// Package realagents runs the coding agents whose hooks Asktray answers
// (Claude Code, Codex, Copilot CLI, Gemini CLI, opencode and Qwen Code, pinned
// in package-lock.json and packed.txt and installed by .ci/agents.sh) against a fake model server on loopback, with
// their hooks installed by 'asktray config AGENT --hooks --write' and a
// headless app answering. It holds tests only.
package realagents
