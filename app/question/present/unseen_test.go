package present

import (
	"encoding/json"
	"testing"

	"github.com/asktray/asktray/app/question"
)

func TestUnseen(t *testing.T) {
	t.Parallel()
	allow := question.Response{Action: question.Accept, Value: json.RawMessage(`"allow"`)}
	deny := question.Response{Action: question.Decline}
	cut := question.Question{Kind: question.KindApproval, Action: "Bash", Cut: true}
	if Unseen(&cut) != UnseenReason || !RefusesUnseen(&cut, allow) || RefusesUnseen(&cut, deny) {
		t.Errorf("a cut approval: %q", Unseen(&cut))
	}
	whole := question.Question{Kind: question.KindApproval, Action: "Bash"}
	if Unseen(&whole) != "" || RefusesUnseen(&whole, allow) {
		t.Error("an approval shown in full is refused")
	}
	other := question.Question{Kind: question.KindConfirm, Cut: true}
	if Unseen(&other) != "" {
		t.Error("only approvals are refused")
	}
}
