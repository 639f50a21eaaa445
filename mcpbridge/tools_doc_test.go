package mcpbridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// toolsDoc is where the tools' reference page lives.
var toolsDoc = filepath.Join("..", "docs", "tools.md")

// TestToolsDoc keeps docs/tools.md what the tool definitions say: it renders
// the page from Tools(), Instructions and the common result fields, and
// fails when the file differs. Run with -update to rewrite it.
func TestToolsDoc(t *testing.T) {
	t.Parallel()
	got := renderToolsDoc(t)
	if *update {
		if err := os.WriteFile(toolsDoc, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(toolsDoc)
	if err != nil {
		t.Fatalf("read %s (run go test ./mcpbridge -run TestToolsDoc -update): %v", toolsDoc, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: the tool definitions changed; run go test -tags migrated_fynedo ./mcpbridge -run TestToolsDoc -update and review the diff", toolsDoc)
	}
}

// schemaProp is the part of a JSON Schema property the page shows.
type schemaProp struct {
	Type        string          `json:"type"`
	Description string          `json:"description"`
	Enum        []string        `json:"enum"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	MinLength   *int            `json:"minLength"`
	MaxLength   *int            `json:"maxLength"`
	MinItems    *int            `json:"minItems"`
	MaxItems    *int            `json:"maxItems"`
	Items       json.RawMessage `json:"items"`
}

type objectSchema struct {
	Properties map[string]schemaProp `json:"properties"`
	Required   []string              `json:"required"`
}

func renderToolsDoc(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("# Tools\n\n")
	b.WriteString("<!-- Generated from the tool definitions (mcpbridge/tools.go) by\n")
	b.WriteString("     go test -tags migrated_fynedo ./mcpbridge -run TestToolsDoc -update; do not edit by hand. -->\n\n")
	b.WriteString("Asktray's MCP server offers these tools. The exact schemas, as `tools/list` sends them, are the\n")
	b.WriteString("golden files in `mcpbridge/testdata/tools/`. No tool lets an agent answer, list or read questions.\n\n")
	b.WriteString("| Tool | Title | Read-only | Idempotent |\n|---|---|---|---|\n")
	tools := Tools()
	for _, tl := range tools {
		a := tl.Annotations
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", tl.Name, tl.Name, tl.Title, yesNo(a.ReadOnlyHint), yesNo(a.IdempotentHint))
	}
	b.WriteString("\n## What the server tells the model\n\nThe `instructions` of the `initialize` result:\n\n```text\n")
	b.WriteString(Instructions)
	b.WriteString("\n```\n")
	for _, tl := range tools {
		fmt.Fprintf(&b, "\n## %s\n\n**%s.** %s\n\n", tl.Name, tl.Title, tl.Description)
		var in objectSchema
		if err := json.Unmarshal(tl.RawInputSchema, &in); err != nil {
			t.Fatal(err)
		}
		b.WriteString("| Argument | Type | Required | Description |\n|---|---|---|---|\n")
		for _, name := range argOrder(in) {
			p := in.Properties[name]
			req := ""
			if slices.Contains(in.Required, name) {
				req = "yes"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", name, cell(typeText(p)), req, cell(p.Description))
		}
		var out objectSchema
		if err := json.Unmarshal(tl.RawOutputSchema, &out); err != nil {
			t.Fatal(err)
		}
		// A result with a question_id has the common fields; permission_prompt's
		// is Claude Code's own shape.
		_, withCommon := out.Properties["question_id"]
		var own []string
		for name := range out.Properties {
			if _, common := commonOutput[name]; !common || !withCommon {
				own = append(own, name)
			}
		}
		slices.Sort(own)
		switch {
		case len(own) == 0:
			b.WriteString("\nThe result has only the [common fields](#results).\n")
			continue
		case withCommon:
			b.WriteString("\nResult fields besides the [common ones](#results):\n")
		default:
			b.WriteString("\nResult fields:\n")
		}
		b.WriteString("\n| Field | Type | Description |\n|---|---|---|\n")
		for _, name := range own {
			p := out.Properties[name]
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", name, cell(typeText(p)), cell(p.Description))
		}
	}
	b.WriteString("\n## Results\n\nEvery result except `permission_prompt`'s carries these fields (`question_id`, `tool`, `question`,\n")
	b.WriteString("`status` and `next_step` always). Only `answered` and `auto_approved` carry a usable answer.\n\n")
	b.WriteString("| Field | Type | Description |\n|---|---|---|\n")
	var common []string
	for name := range commonOutput {
		common = append(common, name)
	}
	slices.Sort(common)
	raw, err := json.Marshal(commonOutput)
	if err != nil {
		t.Fatal(err)
	}
	var props map[string]schemaProp
	if err := json.Unmarshal(raw, &props); err != nil {
		t.Fatal(err)
	}
	for _, name := range common {
		p := props[name]
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", name, cell(typeText(p)), cell(p.Description))
	}
	return b.Bytes()
}

// argOrder lists the required arguments first, in their declared order,
// then the others by name, with the common ask parameters last.
func argOrder(s objectSchema) []string {
	order := slices.Clone(s.Required)
	var rest, last []string
	for name := range s.Properties {
		switch {
		case slices.Contains(s.Required, name):
		case name == "timeout_seconds" || name == "wait":
			last = append(last, name)
		default:
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	slices.Sort(last)
	return append(append(order, rest...), last...)
}

// typeText describes a property's type and bounds in a few words.
func typeText(p schemaProp) string {
	if len(p.Enum) > 0 {
		return "one of `" + strings.Join(p.Enum, "`, `") + "`"
	}
	s := p.Type
	if s == "" {
		s = "any"
	}
	if p.Type == "array" && len(p.Items) > 0 {
		var it schemaProp
		if json.Unmarshal(p.Items, &it) == nil && it.Type != "" {
			s = "array of " + it.Type + "s"
		}
	}
	var bounds []string
	add := func(label string, v *int) {
		if v != nil {
			bounds = append(bounds, fmt.Sprintf("%s %d", label, *v))
		}
	}
	add("min length", p.MinLength)
	add("max length", p.MaxLength)
	add("min items", p.MinItems)
	add("max items", p.MaxItems)
	if p.Minimum != nil && p.Maximum != nil {
		bounds = append(bounds, fmt.Sprintf("%g..%g", *p.Minimum, *p.Maximum))
	}
	if len(bounds) > 0 {
		s += " (" + strings.Join(bounds, ", ") + ")"
	}
	return s
}

func yesNo(b *bool) string {
	if b != nil && *b {
		return "yes"
	}
	return "no"
}

// cell makes text fit in one Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
