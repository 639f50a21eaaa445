// Package ui is Asktray's desktop face: the tray icon and menu, the status window and, later, a dialog per question and the history window.
//
// It subscribes to the question broker; every broker callback arrives on the
// broker's event goroutine and reaches Fyne only through fyne.Do.
package ui
