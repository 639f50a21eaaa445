package question

import "time"

// The arming delay (the setting arm_delay_ms): how long the dialog and a
// question page must have been shown and focused before their answer
// controls act, so that a key or a click meant for another window never
// lands on a question. The default is Firefox's
// security.notification_enable_delay for permission and add-on prompts
// (modules/libpref/init/all.js); a setting is held within
// MinArmDelay..MaxArmDelay.
const (
	DefaultArmDelay = 500 * time.Millisecond
	MinArmDelay     = 300 * time.Millisecond
	MaxArmDelay     = 5 * time.Second
)

// ClampArmDelay returns d held at or above MinArmDelay, or DefaultArmDelay
// when d is zero or negative. A longer d is kept: the settings refuse one
// over MaxArmDelay, and a test may ask for more.
func ClampArmDelay(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultArmDelay
	}
	return max(d, MinArmDelay)
}
