// Package ui is Asktray's desktop face, built on Fyne: the tray icon and
// menu with the pending questions, a dialog per question (native controls
// for every kind, armed only when the person can have seen it; see
// docs/arming.md), a desktop notification per question, the history window,
// the settings and rules windows, the status window and the Connect a
// client window. A closed dialog's window is kept hidden and filled again
// for the next question (windowPool; docs/benchmarks.md has the figures).
//
// It subscribes to the question broker; every broker callback arrives on the
// broker's event goroutine and reaches Fyne only through fyne.Do, so the
// tray, the dialogs and the history see events in the broker's order on the
// Fyne goroutine. Notifications are queued, in that order, for the
// notifier's one worker goroutine, which Run starts and joins. What the
// dialog shows about a question (the client line, rules and messages, a
// form's answer) comes from app/question/present, shared with the question
// page.
package ui
