// Package askdialog is the question dialog, the security-critical half of
// Asktray's desktop face: a window per pending question with native
// controls for every kind (a renderer per kind, render_*.go), armed only
// when the person can have seen it (guard, dialog_guard.go; docs/arming.md),
// its key routing (dialog_keys.go), its Snooze, Always… and Browser menus,
// and the queue: one dialog open at a time, the others waiting without
// taking focus (Manager, dialogs.go). A closed dialog's window
// is kept hidden and filled again for the next question (windowPool;
// docs/benchmarks.md has the figures).
//
// Its API is narrow: the tray makes one Manager (NewManager), hands it the
// broker's events on the Fyne goroutine (Handle), opens a question's dialog
// from its menu or a notification (Open), opens what is pending at start and
// after away (Start), and passes on a new arming delay (SetArmDelay). Every
// method runs on the Fyne goroutine. What a dialog shows about a question
// (the client line, rules and messages, a form's answer) comes from
// app/question/present, shared with the question page; answers go to the
// broker, and "Always…" rules to app/policy.
package askdialog
