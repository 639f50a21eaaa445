// sdk-client.mjs drives Asktray with the official TypeScript SDK client, as
// a Node-based agent would: connect, list the tools, call one tool, and print
// what happened as JSON lines on stdout for the Go test to read.
//
// Usage:
//   node sdk-client.mjs '{"transport":"http","url":URL,"token":TOKEN,"tool":NAME,"arguments":{...},
//                        "timeoutMs":N,"resetTimeoutOnProgress":true}'
//   node sdk-client.mjs '{"transport":"stdio","command":BIN,"args":["stdio","--data-dir",DIR],
//                        "tool":NAME,"arguments":{...}}'
//
// Lines printed (one JSON object each):
//   {"event":"connected","server":{name,version},"protocolVersion":...}
//   {"event":"tools","names":[...]}
//   {"event":"progress","progress":N,"message":"...","ms":elapsed}
//   {"event":"result","ms":elapsed,"result":CallToolResult}      exit code 0
//   {"event":"error","ms":elapsed,"code":N,"message":"..."}       exit code 1
// With "progress":true a progress token is sent (onprogress is set). With
// "reask":{"afterMs":N,"timeoutMs":M} the same call is made again on the same
// session N ms after the first ends (its own result or error line follows;
// the exit code is the second call's). With "lingerMs" the client stays
// connected that long after the calls end.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const cfg = JSON.parse(process.argv[2] ?? "{}");
const say = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

function transport() {
  switch (cfg.transport) {
    case "http": {
      const headers = cfg.token ? { Authorization: `Bearer ${cfg.token}` } : {};
      return new StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers } });
    }
    case "stdio":
      // Pass the whole environment: the Go test's child binary needs its
      // ASKTRAY_TEST_* variables. stderr goes to ours, which the test keeps.
      return new StdioClientTransport({
        command: cfg.command,
        args: cfg.args ?? [],
        env: { ...process.env },
        stderr: "inherit",
      });
    default:
      throw new Error(`transport: want "http" or "stdio", got ${JSON.stringify(cfg.transport)}`);
  }
}

const client = new Client({ name: cfg.clientName ?? "asktray-ts-sdk-test", version: "1.0.0" });
// Times are milliseconds since the tool call started (since start until then).
let t0 = Date.now();
let code = 0;
try {
  await client.connect(transport());
  say({
    event: "connected",
    server: client.getServerVersion(),
    protocolVersion: client.transport?.protocolVersion ?? null,
  });
  // Listing the tools also makes the client validate structuredContent
  // against each tool's outputSchema when it is called.
  const { tools } = await client.listTools();
  say({ event: "tools", names: tools.map((t) => t.name) });

  const options = {};
  if (cfg.timeoutMs) options.timeout = cfg.timeoutMs;
  if (cfg.maxTotalTimeoutMs) options.maxTotalTimeout = cfg.maxTotalTimeoutMs;
  if (cfg.progress) {
    options.onprogress = (p) => say({ event: "progress", progress: p.progress, message: p.message ?? "", ms: Date.now() - t0 });
    options.resetTimeoutOnProgress = Boolean(cfg.resetTimeoutOnProgress);
  }
  code = await callOnce(options);
  if (cfg.reask) {
    // Ask the same question again on the same session, as an agent does
    // after its call timed out: it re-attaches and collects the answer.
    await new Promise((r) => setTimeout(r, cfg.reask.afterMs ?? 0));
    code = await callOnce({ ...options, timeout: cfg.reask.timeoutMs ?? options.timeout });
  }
} catch (err) {
  code = 1;
  say({ event: "error", ms: Date.now() - t0, code: err?.code ?? null, message: String(err?.message ?? err) });
}

// callOnce calls the tool and prints its result or error; it returns the exit code.
async function callOnce(options) {
  t0 = Date.now();
  try {
    const result = await client.callTool({ name: cfg.tool, arguments: cfg.arguments ?? {} }, undefined, options);
    say({ event: "result", ms: Date.now() - t0, result });
    return 0;
  } catch (err) {
    say({ event: "error", ms: Date.now() - t0, code: err?.code ?? null, message: String(err?.message ?? err) });
    return 1;
  }
}
// A real agent outlives a timed-out call. Give the notifications/cancelled
// the SDK sends on a timeout time to reach the server before closing.
if (cfg.lingerMs) await new Promise((r) => setTimeout(r, cfg.lingerMs));
await client.close().catch(() => {});
process.exit(code);
