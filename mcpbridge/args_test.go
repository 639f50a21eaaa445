package mcpbridge

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sampleValues returns JSON values a property of schema accepts, so that a
// test can send each declared argument: every enum value, both booleans,
// an in-range integer, a string, an option list or an object.
func sampleValues(t *testing.T, schema json.RawMessage) []string {
	t.Helper()
	var s struct {
		Type    string         `json:"type"`
		Enum    []string       `json:"enum"`
		Maximum *int           `json:"maximum"`
		Items   map[string]any `json:"items"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range s.Enum {
		b, _ := json.Marshal(e)
		out = append(out, string(b))
	}
	switch s.Type {
	case "string":
		out = append(out, `"sample"`)
	case "boolean":
		out = append(out, "true", "false")
	case "integer":
		n := 7
		if s.Maximum != nil {
			n = min(n, *s.Maximum)
		}
		out = append(out, strconv.Itoa(n))
	case "array":
		if s.Items["type"] == "object" {
			out = append(out, `[{"label":"sample","description":"d"}]`)
		} else {
			out = append(out, `["sample"]`)
		}
	case "object":
		out = append(out, `{"type":"object","properties":{}}`)
	}
	return out
}

// TestEveryDeclaredArgumentIsDecoded sends each argument an ask tool's input
// schema declares, alone beside the required ones, and checks that it
// changes the decoded question or wait: an argument the schema promises but
// the decoder drops (or refuses) fails here.
func TestEveryDeclaredArgumentIsDecoded(t *testing.T) {
	t.Parallel()
	for _, tool := range Tools() {
		spec := specNamed(t, tool.Name)
		if spec.args == nil {
			continue
		}
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(tool.RawInputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		base, err := spec.parseAsk(nil)
		if err != nil {
			t.Fatalf("%s with no arguments: %v", tool.Name, err)
		}
		for name, prop := range schema.Properties {
			changed := false
			for _, v := range sampleValues(t, prop) {
				a, err := spec.parseAsk(json.RawMessage(`{"` + name + `":` + v + `}`))
				if err != nil {
					t.Errorf("%s: %s=%s refused: %v", tool.Name, name, v, err)
					continue
				}
				if !reflect.DeepEqual(a, base) {
					changed = true
				}
			}
			if !changed {
				t.Errorf("%s declares %s but decoding it changes nothing", tool.Name, name)
			}
		}
	}
}

// TestDecodedArgumentsAreDeclared checks the other way: every field an ask
// tool's arguments type decodes is declared in its input schema, so none is
// dead (refused by the allow-list) or undocumented.
func TestDecodedArgumentsAreDeclared(t *testing.T) {
	t.Parallel()
	for _, spec := range toolSpecs {
		if spec.args == nil {
			continue
		}
		name, newArgs := spec.name, spec.args
		declared := spec.argNames()
		if len(declared) == 0 {
			t.Fatalf("%s declares no arguments", name)
		}
		for _, field := range jsonFields(reflect.TypeOf(newArgs()).Elem()) {
			if !slices.Contains(declared, field) {
				t.Errorf("%s decodes %q, which its input schema does not declare", name, field)
			}
		}
	}
}

// jsonFields lists the JSON names of t's fields, following embedded structs.
func jsonFields(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		if f.Anonymous {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag != "" && tag != "-" {
			out = append(out, tag)
		}
	}
	return out
}

// TestUndeclaredArgumentRefused checks that the allow-list follows each
// tool's schema: ask_choice does not declare the selection bounds that
// ask_multi_select does, so it refuses them, naming what it takes.
func TestUndeclaredArgumentRefused(t *testing.T) {
	t.Parallel()
	_, err := askChoiceSpec.parseAsk(json.RawMessage(`{"question":"q","min_selections":1}`))
	if err == nil || !strings.Contains(err.Error(), "min_selections: unknown argument; this tool takes default, free_text, header, options, question, timeout_seconds, wait") {
		t.Fatalf("got %v", err)
	}
	if _, err := askMultiSelectSpec.parseAsk(json.RawMessage(`{"question":"q","min_selections":1}`)); err != nil {
		t.Fatal(err)
	}
	_, err = askMultiSelectSpec.parseAsk(json.RawMessage(`{"max_selections":"two"}`))
	if err == nil || err.Error() != `max_selections: must be an integer, got string` {
		t.Fatalf("type error names %v", err)
	}
}

// specNamed returns the spec of the tool called name, failing t when there
// is none.
func specNamed(t testing.TB, name string) *toolSpec {
	t.Helper()
	for _, s := range toolSpecs {
		if s.name == name {
			return s
		}
	}
	t.Fatalf("no tool %q", name)
	return nil
}
