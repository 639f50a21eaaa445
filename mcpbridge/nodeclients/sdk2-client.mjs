// sdk2-client.mjs drives Asktray with the TypeScript SDK's v2 client package
// (@modelcontextprotocol/client), which speaks MCP 2026-07-28 as well as the
// 2025 revisions: connect over Streamable HTTP at the era asked for, list the
// tools, call one tool, and print what happened as JSON lines on stdout.
//
// Usage:
//   node sdk2-client.mjs '{"url":URL,"token":TOKEN,"era":"legacy"|"modern","tool":NAME,"arguments":{...},
//                         "form":{"action":"accept","content":{...},"delayMs":N}}'
//   node sdk2-client.mjs '{"command":BIN,"args":["stdio","--data-dir",DIR],"era":...,"tool":...}'
//                         (stdio: runs `asktray stdio` as the server)
//
// "era" modern pins 2026-07-28 (server/discover, no initialize, no session);
// legacy runs the 2025 initialize handshake. With "form" the client declares
// form elicitation and answers every form so, after delayMs: at 2025-11-25
// as an elicitation/create request, at 2026-07-28 by fulfilling the
// input_required result and retrying the call (the SDK does it inside
// callTool).
//
// Lines printed (one JSON object each):
//   {"event":"connected","era":"modern"|"legacy","protocolVersion":...}
//   {"event":"tools","names":[...]}
//   {"event":"form","message":"...","schema":{...}}
//   {"event":"result","ms":elapsed,"result":CallToolResult}      exit code 0
//   {"event":"error","ms":elapsed,"code":N,"message":"..."}       exit code 1
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const cfg = JSON.parse(process.argv[2] ?? "{}");
const say = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

const options = {};
if (cfg.era === "modern") options.versionNegotiation = { mode: { pin: "2026-07-28" } };
if (cfg.form) options.capabilities = { elicitation: { form: {} } };
const client = new Client({ name: cfg.clientName ?? "asktray-ts-sdk2-test", version: "1.0.0" }, options);
if (cfg.form) {
  client.setRequestHandler("elicitation/create", async (request) => {
    say({ event: "form", message: request.params.message, schema: request.params.requestedSchema });
    await new Promise((r) => setTimeout(r, cfg.form.delayMs ?? 0));
    return { action: cfg.form.action, content: cfg.form.content };
  });
}
const headers = cfg.token ? { Authorization: `Bearer ${cfg.token}` } : {};
let t0 = Date.now();
let code = 0;
try {
  const transport = cfg.command
    ? new StdioClientTransport({ command: cfg.command, args: cfg.args ?? [], env: { ...process.env }, stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers } });
  await client.connect(transport);
  say({ event: "connected", era: client.getProtocolEra() ?? null, protocolVersion: client.getNegotiatedProtocolVersion() ?? null });
  const { tools } = await client.listTools();
  say({ event: "tools", names: tools.map((t) => t.name) });
  t0 = Date.now();
  const result = await client.callTool({ name: cfg.tool, arguments: cfg.arguments ?? {} }, { timeout: cfg.timeoutMs ?? 60000 });
  say({ event: "result", ms: Date.now() - t0, result });
} catch (err) {
  code = 1;
  say({ event: "error", ms: Date.now() - t0, code: err?.code ?? null, message: String(err?.message ?? err) });
}
await client.close().catch(() => {});
process.exit(code);
