//go:build !linux || !cgo

package personcheck

import "errors"

// Service is the PAM service Asktray would check passwords with; this build
// has no PAM.
const Service = ""

// System returns the Verifier of this platform: none is built, so every
// check is refused and names the dialog.
func System() Verifier {
	if testVerifier != nil {
		return testVerifier
	}
	return unavailable{errors.New("this build of Asktray checks login passwords only on Linux")}
}
