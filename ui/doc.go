// Package ui is Asktray's desktop face, built on Fyne: the tray icon and
// menu with the pending questions, a desktop notification per question, the
// settings and rules windows, the status window and the Connect a client
// window. The question dialog is ui/askdialog (a window per question, armed
// only when the person can have seen it; see docs/arming.md) and the
// history window ui/historyview; Run wires them to the tray with callbacks.
// What they share (defanged Markdown, a caption label, opening a question's
// page) is in ui/internal.
//
// It subscribes to the question broker; every broker callback arrives on the
// broker's event goroutine and reaches Fyne only through fyne.Do, so the
// tray, the dialogs and the history see events in the broker's order on the
// Fyne goroutine. Notifications are queued, in that order, for the
// notifier's one worker goroutine, which Run starts and joins.
package ui
