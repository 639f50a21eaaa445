package question

import (
	"errors"
	"strings"
	"testing"
)

// TestOrigin: every origin, the zero value included, is valid; any other
// fails validation naming the field.
func TestOrigin(t *testing.T) {
	t.Parallel()
	for _, o := range []Origin{"", OriginAsk, OriginApproval, OriginPermission, OriginAgentQuestion, OriginAgentNotice} {
		q := Question{Kind: KindNotice, Message: "Build finished.", Origin: o}
		if err := q.Validate(); err != nil {
			t.Errorf("origin %q: %v", o, err)
		}
	}
	q := Question{Kind: KindNotice, Message: "Build finished.", Origin: "hook"}
	err := q.Validate()
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "origin" || !strings.Contains(err.Error(), `"hook"`) {
		t.Fatalf("origin hook: %v", err)
	}
}
