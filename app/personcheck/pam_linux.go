//go:build linux && cgo

package personcheck

import (
	"errors"
	"fmt"
	"os/user"
	"sync"

	"github.com/msteinert/pam/v2"
)

// Service is the PAM service Asktray checks passwords with. The .deb
// installs /etc/pam.d/asktray (packaging/linux/pam.d/asktray); without that
// file PAM uses its "other" service.
const Service = "asktray"

// pamVerifier checks the password of one user through one PAM service.
type pamVerifier struct {
	service, user string
	mu            sync.Mutex // one PAM transaction at a time
}

// System returns the Verifier for the user who runs the app: PAM's service
// Service, authenticate then account management, with
// PAM_DISALLOW_NULL_AUTHTOK so that an account without a password never
// passes. It does not block.
func System() Verifier {
	if testVerifier != nil {
		return testVerifier
	}
	u, err := user.Current()
	if err != nil {
		return unavailable{fmt.Errorf("who runs the app: %w", err)}
	}
	return &pamVerifier{service: Service, user: u.Username}
}

// Verify runs one PAM transaction for password. It blocks (PAM delays a
// failure by about two seconds); calls are serialised.
func (v *pamVerifier) Verify(password string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	asked := false
	tx, err := pam.StartFunc(v.service, v.user, func(s pam.Style, _ string) (string, error) {
		switch s {
		case pam.PromptEchoOff:
			if asked {
				return "", errors.New("a second secret was asked for")
			}
			asked = true
			return password, nil
		case pam.PromptEchoOn:
			return "", errors.New("only a password can be given here")
		}
		return "", nil // ErrorMsg, TextInfo: nobody reads them here
	})
	if err != nil {
		return fmt.Errorf("%w: PAM service %s: %w", ErrUnavailable, v.service, err)
	}
	defer func() { _ = tx.End() }()
	if err := tx.Authenticate(pam.Silent | pam.DisallowNullAuthtok); err != nil {
		return classify(v.service, err)
	}
	if err := tx.AcctMgmt(pam.Silent | pam.DisallowNullAuthtok); err != nil {
		return classify(v.service, err)
	}
	return nil
}

// classify maps a PAM error to ErrWrongPassword or ErrUnavailable.
func classify(service string, err error) error {
	var pe pam.Error
	if errors.As(err, &pe) && (pe == pam.ErrAuth || pe == pam.ErrMaxtries) {
		return fmt.Errorf("%w: PAM service %s: %w", ErrWrongPassword, service, err)
	}
	return fmt.Errorf("%w: PAM service %s: %w", ErrUnavailable, service, err)
}
