// Package nodeclients holds tests that run MCP clients nobody on this project
// wrote against a real asktray process: the official conformance suite, the
// MCP Inspector CLI and the TypeScript SDK client, all on Node 22 pinned in
// package-lock.json and installed by `make deps` (npm ci). The package has
// no code of its own; see its _test.go files and README "Tested with real
// clients".
package nodeclients
