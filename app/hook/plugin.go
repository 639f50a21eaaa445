package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A plugin agent (opencode) hands the hook its own bus events, wrapped by
// asktray's plugin as {"directory": D, "event": {"type": T, "properties":
// P}} and, for permission.replied, "asked": the permission.asked event it
// answers. unwrapPluginEvent turns that into the snake_case payload Parse
// reads.

// pluginEvent is one bus event as the plugin hands it over.
type pluginEvent struct {
	Type       string `json:"type"`
	Properties struct {
		ID         string          `json:"id"`
		SessionID  string          `json:"sessionID"`
		RequestID  string          `json:"requestID"`
		Permission string          `json:"permission"`
		Patterns   []string        `json:"patterns"`
		Metadata   json.RawMessage `json:"metadata"`
		Reply      string          `json:"reply"`
		Tool       struct {
			CallID string `json:"callID"`
		} `json:"tool"`
	} `json:"properties"`
}

// unwrapPluginEvent reads what asktray's plugin hands the hook. A payload
// with no "event" (the doctor's test request) passes unchanged. Errors
// name the field at fault.
func unwrapPluginEvent(data []byte) ([]byte, error) {
	var in struct {
		Directory string       `json:"directory"`
		Event     *pluginEvent `json:"event"`
		Asked     *pluginEvent `json:"asked"`
	}
	if len(data) == 0 || data[0] != '{' || json.Unmarshal(data, &in) != nil || in.Event == nil {
		return data, nil
	}
	ev := in.Event
	asked := ev
	switch ev.Type {
	case "permission.asked":
	case "permission.replied":
		if in.Asked == nil || in.Asked.Properties.ID != ev.Properties.RequestID {
			return nil, errors.New("asked: the permission.asked event a permission.replied answers is required")
		}
		asked = in.Asked
	default:
		return nil, fmt.Errorf("event.type: %q is neither permission.asked nor permission.replied", ev.Type)
	}
	event := ev.Type
	if ev.Type == "permission.replied" && ev.Properties.Reply == "reject" {
		event = PostToolUseFailure // rejected there: the tool did not run
	}
	return json.Marshal(map[string]any{
		"hook_event_name": event,
		"session_id":      ev.Properties.SessionID,
		"cwd":             in.Directory,
		"tool_name":       asked.Properties.Permission,
		"tool_use_id":     asked.Properties.Tool.CallID,
		"tool_input":      pluginToolInput(asked),
	})
}

// pluginToolInput is what a permission is about: its metadata (bash's holds
// the command), or its patterns when the metadata is empty.
func pluginToolInput(ev *pluginEvent) json.RawMessage {
	m := bytes.TrimSpace(ev.Properties.Metadata)
	if len(m) > 2 && m[0] == '{' {
		return m
	}
	b, _ := json.Marshal(map[string]any{"patterns": ev.Properties.Patterns}) // strings always encode
	return b
}

// pluginEntryPrefix starts the line of the plugin file that holds the
// command it runs, as JSON.
const pluginEntryPrefix = "const entry = "

// readPluginEntry finds the command and timeout in a plugin file
// pluginSource wrote.
func readPluginEntry(src []byte) ([]string, int, bool) {
	for line := range strings.Lines(string(src)) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), pluginEntryPrefix)
		if !ok {
			continue
		}
		var e struct {
			Command []string `json:"command"`
			Timeout int      `json:"timeout"`
		}
		if json.Unmarshal([]byte(strings.TrimSuffix(rest, ";")), &e) != nil || len(e.Command) == 0 {
			return nil, 0, false
		}
		return e.Command, e.Timeout, true
	}
	return nil, 0, false
}

// pluginSource is asktray's plugin for agent (opencode's plugin API), which
// runs e's command for each permission the agent asks. The plugin never
// allows by itself, never holds up the agent's event bus (it awaits nothing
// there) and does nothing when the command prints nothing, which is what
// 'asktray hook' does within about a second when the app is down.
func pluginSource(agent string, e Entry) []byte {
	args, _ := json.Marshal(e.Args) // strings always encode
	entry := fmt.Sprintf(`%s{"command": %s, "timeout": %d};`, pluginEntryPrefix, args, e.Timeout)
	return []byte(strings.NewReplacer("AGENT", agent, "ENTRY", entry).Replace(pluginJS))
}

const pluginJS = `// Asktray's plugin for AGENT, written by 'asktray config AGENT --hooks --write'
// ('asktray config AGENT --hooks --remove' deletes it; edits here are lost on the next --write).
//
// Each permission AGENT asks is asked in the Asktray tray too, through the command below; the first
// answer counts. The tray's answer is posted to AGENT's own reply route: allow once, or reject with
// your note, which the model reads. An answer in AGENT first ends the tray question. When Asktray is
// not running, or you do not answer in the tray, the command prints nothing and this plugin does
// nothing: AGENT's own prompt stays. It never allows anything by itself.
import { spawn } from "node:child_process";

ENTRY

// The requests taken to Asktray, by id, shared by every instance of this plugin in the process.
const waiting = (globalThis.__asktrayWaiting ??= new Map());

// run starts the command with payload on stdin; done resolves to what it printed ("" on any failure).
function run(payload, limitMs) {
  let child = null;
  const done = new Promise((resolve) => {
    let out = "";
    try {
      child = spawn(entry.command[0], entry.command.slice(1), { stdio: ["pipe", "pipe", "ignore"], windowsHide: true });
    } catch {
      resolve("");
      return;
    }
    const timer = setTimeout(() => child.kill(), limitMs);
    child.on("error", () => {
      clearTimeout(timer);
      resolve("");
    });
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("close", () => {
      clearTimeout(timer);
      resolve(out);
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
  });
  return { kill: () => child?.kill(), done };
}

// reply posts body, {"reply": "once"|"reject", "message": ...}, to AGENT's reply route.
async function reply(client, id, body) {
  try {
    await client._client.post({
      url: "/permission/{requestID}/reply",
      path: { requestID: id },
      body,
      headers: { "Content-Type": "application/json" },
    });
  } catch {}
}

export const AsktrayPlugin = async ({ client, directory }) => ({
  event: async ({ event }) => {
    const p = event?.properties;
    if (event?.type === "permission.asked" && p?.id && !waiting.has(p.id)) {
      const hook = run({ directory, event }, entry.timeout * 1000);
      const w = { hook, event };
      waiting.set(p.id, w);
      hook.done.then((out) => {
        if (waiting.get(p.id) !== w) return; // answered in AGENT first
        waiting.delete(p.id);
        let body = null;
        try {
          body = JSON.parse(out);
        } catch {}
        if (body && (body.reply === "once" || body.reply === "reject")) reply(client, p.id, body);
      });
    } else if (event?.type === "permission.replied" && waiting.has(p?.requestID)) {
      const w = waiting.get(p.requestID);
      waiting.delete(p.requestID);
      run({ directory, event, asked: w.event }, 5000).done.then(() => w.hook.kill());
    }
  },
});
`
