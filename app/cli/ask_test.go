package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestAskFlagIsChecked(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"--ask", "yad", "--data-dir", t.TempDir(), "--addr", "127.0.0.1:0"}, IO{Out: &out, Err: &errb}, nil)
	if code != ExitUsage || !strings.Contains(errb.String(), `--ask: must be one of desktop, client, auto, got "yad"`) {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}
