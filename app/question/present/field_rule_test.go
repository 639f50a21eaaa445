package present

import (
	"encoding/json"
	"testing"

	"github.com/asktray/asktray/app/question"
)

func TestFieldRule(t *testing.T) {
	t.Parallel()
	s, err := question.ParseSchema(json.RawMessage(`{"type":"object","properties":{
		"n":{"type":"integer","minimum":1,"maximum":100},
		"lo":{"type":"number","minimum":0},
		"hi":{"type":"number","maximum":2.5},
		"any":{"type":"integer"},
		"note":{"type":"string","maxLength":200},
		"name":{"type":"string","minLength":3,"maxLength":40},
		"one":{"type":"string","minLength":1},
		"when":{"type":"string","format":"date"},
		"mail":{"type":"string","format":"email","maxLength":80},
		"plain":{"type":"string"},
		"flag":{"type":"boolean"},
		"pick":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":1,"maxItems":2},
		"some":{"type":"array","items":{"type":"string","enum":["a","b","c"]}}
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Whole number, 1–100",
		"Number, at least 0",
		"Number, at most 2.5",
		"Whole number",
		"At most 200 characters",
		"3–40 characters",
		"At least 1 character",
		"Date, YYYY-MM-DD",
		"Email address, like ada@example.com  ·  at most 80 characters",
		"",
		"",
		"Pick 1–2",
		"",
	}
	for i, f := range s.Fields {
		if got := FieldRule(f); got != want[i] {
			t.Errorf("%s: %q, want %q", f.Name, got, want[i])
		}
	}
}
