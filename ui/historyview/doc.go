// Package historyview is the history window: a filter bar (search, verdict,
// client, kind, date range) over the list of decided questions, newest
// first and paged, and the selected record's details; export, delete and
// clear-older-than act on the store. It reads an app/history Store and
// follows the question broker's events, which the tray hands to Handle on
// the Fyne goroutine. It knows nothing of the question dialog: "Open dialog"
// calls Window.OnOpenDialog.
package historyview
