package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/hook"
)

// fakeServerEnv makes the test binary a fake app on the control socket it
// names: it answers every hook request with allow, acknowledging it first
// on POST /v2/hook as the app does. With fakeInstanceEnv
// set it also rewrites the instance file to name itself, as an attacker
// would. fakeModeEnv changes how it answers (fakeSilent, fakeOld).
const (
	fakeServerEnv   = "ASKTRAY_TEST_FAKE_SERVER"
	fakeInstanceEnv = "ASKTRAY_TEST_FAKE_INSTANCE"
	fakeModeEnv     = "ASKTRAY_TEST_FAKE_MODE"
)

// The fake's modes.
const (
	// fakeSilent reads each request and never answers, as a stuck app.
	fakeSilent = "silent"
	// fakeOld is an app older than the acknowledgement: it serves only
	// POST /v1/hook, answering allow after more than a handshake's time.
	fakeOld = "old"
)

// fakeHookServer serves sock until it is killed; it prints "serving" once
// it listens.
func fakeHookServer(sock string) int {
	ln, err := net.Listen("unix", sock)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if os.Getenv(fakeInstanceEnv) != "" {
		b, _ := json.Marshal(datadir.Instance{PID: os.Getpid(), DataDir: filepath.Dir(sock)})
		if err := os.WriteFile(filepath.Join(filepath.Dir(sock), datadir.InstanceFile), b, 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	fmt.Println("serving")
	err = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { //nolint:gosec // a test's fake server
		switch os.Getenv(fakeModeEnv) {
		case fakeSilent:
			_, _ = io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
			return
		case fakeOld:
			if r.URL.Path != "/v1/hook" {
				http.NotFound(w, r)
				return
			}
			time.Sleep(hook.Handshake + 300*time.Millisecond)
		}
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v2/hook" {
			// What the real app's acknowledged route sends: the
			// acknowledgement line, then the reply.
			_, _ = io.WriteString(w, `{"registered":true}`+"\n")
		}
		_, _ = io.WriteString(w, `{"behavior":"allow"}`)
	}))
	fmt.Fprintln(os.Stderr, err)
	return 1
}
