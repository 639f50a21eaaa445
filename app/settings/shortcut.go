package settings

import (
	"fmt"
	"strings"
)

// Shortcut is a key chord the person presses anywhere on the desktop to
// bring the pending question to the front (global_shortcut): one or more
// modifiers and one key.
type Shortcut struct {
	Ctrl, Alt, Shift, Super bool
	// Key is the key's X11 keysym name: "a" to "z", "0" to "9", "F1" to
	// "F12", "space", "Insert", "Home", "End", "Prior", "Next" or "Pause".
	Key string
}

// namedKeys are the keys a chord may end in besides letters, digits and
// F1 to F12, by the word a person writes (lower case), with their keysym.
var namedKeys = map[string]string{
	"space": "space", "insert": "Insert", "home": "Home", "end": "End",
	"pageup": "Prior", "pagedown": "Next", "pause": "Pause",
}

// keyNames are the named keys' keysyms as String writes them.
var keyNames = map[string]string{
	"space": "Space", "Insert": "Insert", "Home": "Home", "End": "End",
	"Prior": "PageUp", "Next": "PageDown", "Pause": "Pause",
}

// ParseShortcut reads a chord such as "Ctrl+Alt+A" or "super+shift+f9":
// modifiers Ctrl (Control), Alt, Shift and Super (Win), in any order and
// case, then the key. It needs Ctrl, Alt or Super, so that it never takes
// a key that types text or Shift's capitals from every other program.
// The error says what a chord looks like.
func ParseShortcut(s string) (Shortcut, error) {
	var sc Shortcut
	parts := strings.Split(strings.ReplaceAll(strings.TrimSpace(s), " ", ""), "+")
	bad := func(why string) (Shortcut, error) {
		return Shortcut{}, fmt.Errorf("%q is not a key chord such as Ctrl+Alt+A: %s", s, why)
	}
	if len(parts) < 2 {
		return bad("it needs Ctrl, Alt or Super and a key")
	}
	for _, m := range parts[:len(parts)-1] {
		var on *bool
		switch strings.ToLower(m) {
		case "ctrl", "control":
			on = &sc.Ctrl
		case "alt":
			on = &sc.Alt
		case "shift":
			on = &sc.Shift
		case "super", "win":
			on = &sc.Super
		default:
			return bad(fmt.Sprintf("%q is not one of Ctrl, Alt, Shift and Super", m))
		}
		if *on {
			return bad(fmt.Sprintf("%s is there twice", m))
		}
		*on = true
	}
	if !sc.Ctrl && !sc.Alt && !sc.Super {
		return bad("it needs Ctrl, Alt or Super")
	}
	key := parts[len(parts)-1]
	if sc.Key = keysym(key); sc.Key == "" {
		return bad(fmt.Sprintf("the key %q is not a letter, a digit, F1 to F12, Space, Insert, Home, End, PageUp, PageDown or Pause", key))
	}
	return sc, nil
}

// keysym is the X11 keysym name of a key as a person writes it ("a",
// "F9", "Prior" for PageUp), or "" when a chord may not end in it.
func keysym(key string) string {
	low := strings.ToLower(key)
	switch {
	case len(low) == 1 && (low[0] >= 'a' && low[0] <= 'z' || low[0] >= '0' && low[0] <= '9'):
		return low
	case len(low) >= 2 && len(low) <= 3 && low[0] == 'f' && fKey(low[1:]):
		return "F" + low[1:]
	}
	return namedKeys[low]
}

// fKey reports whether n is 1 to 12.
func fKey(n string) bool {
	switch n {
	case "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12":
		return true
	}
	return false
}

// String is the chord as the settings window shows it: "Ctrl+Alt+A".
func (sc Shortcut) String() string {
	var parts []string
	for _, m := range []struct {
		on   bool
		name string
	}{{sc.Ctrl, "Ctrl"}, {sc.Alt, "Alt"}, {sc.Shift, "Shift"}, {sc.Super, "Super"}} {
		if m.on {
			parts = append(parts, m.name)
		}
	}
	key := strings.ToUpper(sc.Key) // a letter, a digit or F1 to F12
	if name, ok := keyNames[sc.Key]; ok {
		key = name
	}
	return strings.Join(append(parts, key), "+")
}
