//go:build linux

package xvfbtest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
)

// wlInput is a keyboard and a mouse made through two Wayland protocols that
// sway 1.7 serves: virtual-keyboard-unstable-v1 (zwp_virtual_keyboard_v1)
// and wlr-virtual-pointer-unstable-v1 (zwlr_virtual_pointer_v1). The
// compositor treats their keys and clicks as a real keyboard's and mouse's:
// keys go to the window with its keyboard focus, clicks to the window under
// the cursor, a native Wayland or an XWayland one alike.
//
// Debian 12's wtype speaks the first protocol, but each run brings a keyboard
// with a keymap of its own, and XWayland 22.1 read wtype's Return with the
// keymap it had before (it became Escape in the app); nothing packaged in
// Debian 12 speaks the second (wlrctl is not packaged). So the few requests
// needed are written here on the Wayland wire format: each message is the
// object id, then its size in bytes (header included) << 16 | the opcode,
// then its arguments as 32-bit words (a string is its length with the NUL,
// its bytes and the NUL, padded to 4); a file descriptor goes beside the
// message (SCM_RIGHTS). The keyboard keeps one keymap, the X server's own,
// for the whole session.
//
// Its methods may be called from any goroutine; each blocks until the
// compositor has read what it sent (a wl_display.sync round trip).
type wlInput struct {
	mu       sync.Mutex
	conn     *net.UnixConn
	nextID   uint32
	ptr, kbd uint32 // the virtual pointer and keyboard objects
}

// Object ids, opcodes and key codes used here.
const (
	wlDisplayID          = 1
	wlDisplaySync        = 0
	wlDisplayGetRegistry = 1
	wlDisplayError       = 0 // event
	wlRegistryBind       = 0
	wlRegistryGlobal     = 0 // event
	wlCallbackDone       = 0 // event
	vpManagerCreate      = 0 // create_virtual_pointer(seat, id)
	vpMotionAbsolute     = 1 // (time, x, y, x_extent, y_extent)
	vpButton             = 2 // (time, button, state)
	vpFrame              = 4
	vkManagerCreate      = 0     // create_virtual_keyboard(seat, id)
	vkKeymap             = 0     // (format, fd, size)
	vkKey                = 1     // (time, key, state)
	vkModifiers          = 2     // (depressed, latched, locked, group)
	btnLeft              = 0x110 // BTN_LEFT in linux/input-event-codes.h
	btnRight             = 0x111
	keyLeftShift         = 42
	shiftMask            = 1 // the Shift modifier's bit in an X keymap
)

// dialWaylandInput connects to the Wayland socket at path and makes a
// virtual pointer and a virtual keyboard with keymap (XKB text) on the
// compositor's seat. It blocks until the compositor has made them.
func dialWaylandInput(path string, keymap []byte) (*wlInput, error) {
	c, err := net.DialTimeout("unix", path, 10*time.Second)
	if err != nil {
		return nil, fmt.Errorf("dial wayland: %w", err)
	}
	in := &wlInput{conn: c.(*net.UnixConn), nextID: 2}
	if err := in.setUp(keymap); err != nil {
		c.Close()
		return nil, err
	}
	return in, nil
}

func (in *wlInput) setUp(keymap []byte) error {
	registry := in.newID()
	in.send(wlDisplayID, wlDisplayGetRegistry, nil, registry)
	globals, err := in.roundTrip(registry)
	if err != nil {
		return err
	}
	bind := func(iface string) (uint32, error) {
		name, ok := globals[iface]
		if !ok {
			return 0, fmt.Errorf("the compositor has no %s", iface)
		}
		id := in.newID()
		in.send(registry, wlRegistryBind, nil, append(append([]uint32{name}, wireString(iface)...), 1, id)...)
		return id, nil
	}
	pointers, err := bind("zwlr_virtual_pointer_manager_v1")
	if err != nil {
		return err
	}
	keyboards, err := bind("zwp_virtual_keyboard_manager_v1")
	if err != nil {
		return err
	}
	seat, err := bind("wl_seat")
	if err != nil {
		return err
	}
	in.ptr, in.kbd = in.newID(), in.newID()
	in.send(pointers, vpManagerCreate, nil, seat, in.ptr)
	in.send(keyboards, vkManagerCreate, nil, seat, in.kbd)
	f, err := os.CreateTemp("", "asktray-keymap-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := f.Write(append(keymap, 0)); err != nil {
		return err
	}
	in.send(in.kbd, vkKeymap, syscall.UnixRights(int(f.Fd())), 1, uint32(len(keymap)+1)) // 1: XKB v1
	_, err = in.roundTrip(0)
	return err
}

// click moves the pointer to x, y of a layout w×h (logical pixels, as sway's
// tree gives them) and presses and releases the left button there.
func (in *wlInput) click(x, y, w, h int) error { return in.clickButton(x, y, w, h, btnLeft) }

// clickButton is click with the button of evdev code (btnLeft, btnRight).
func (in *wlInput) clickButton(x, y, w, h int, button uint32) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.send(in.ptr, vpMotionAbsolute, nil, in.now(), uint32(x), uint32(y), uint32(w), uint32(h))
	in.send(in.ptr, vpFrame, nil)
	if _, err := in.roundTrip(0); err != nil {
		return err
	}
	for _, state := range []uint32{1, 0} {
		in.send(in.ptr, vpButton, nil, in.now(), button, state)
		in.send(in.ptr, vpFrame, nil)
	}
	_, err := in.roundTrip(0)
	return err
}

// key presses and releases the key of evdev code, with Shift held when
// shift is true.
func (in *wlInput) key(code uint32, shift bool) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if shift {
		in.send(in.kbd, vkKey, nil, in.now(), keyLeftShift, 1)
		in.send(in.kbd, vkModifiers, nil, shiftMask, 0, 0, 0)
	}
	in.send(in.kbd, vkKey, nil, in.now(), code, 1)
	in.send(in.kbd, vkKey, nil, in.now(), code, 0)
	if shift {
		in.send(in.kbd, vkKey, nil, in.now(), keyLeftShift, 0)
		in.send(in.kbd, vkModifiers, nil, 0, 0, 0, 0)
	}
	_, err := in.roundTrip(0)
	return err
}

// typeText types s, one key every delay, on a US keyboard.
func (in *wlInput) typeText(s string, delay time.Duration) error {
	for _, r := range s {
		code, shift, ok := usKey(r)
		if !ok {
			return fmt.Errorf("no key types %q on a US keyboard here", r)
		}
		if err := in.key(code, shift); err != nil {
			return err
		}
		time.Sleep(delay) // the typist's pace, not a wait for a condition
	}
	return nil
}

// Evdev codes of the keys the tests type (linux/input-event-codes.h).
const (
	keyEsc   = 1
	keyEnter = 28
)

// usKey is the evdev code of the key that types r on a US keyboard, and
// whether Shift is held for it.
func usKey(r rune) (code uint32, shift bool, ok bool) {
	const rows = "1234567890-=\x00\x00qwertyuiop[]\x00\x00asdfghjkl;'`\x00\\zxcvbnm,./"
	const shifted = "!@#$%^&*()_+\x00\x00QWERTYUIOP{}\x00\x00ASDFGHJKL:\"~\x00|ZXCVBNM<>?"
	if r == ' ' {
		return 57, false, true
	}
	if r == '\n' {
		return keyEnter, false, true
	}
	for i, c := range rows {
		if c == r && c != 0 {
			return uint32(i + 2), false, true
		}
	}
	for i, c := range shifted {
		if c == r && c != 0 {
			return uint32(i + 2), true, true
		}
	}
	return 0, false, false
}

// close removes the devices (the compositor does so when its client goes).
func (in *wlInput) close() { in.conn.Close() }

func (in *wlInput) newID() uint32 { in.nextID++; return in.nextID - 1 }

func (in *wlInput) now() uint32 { return uint32(time.Now().UnixMilli()) }

// send writes one request with oob (file descriptors) beside it; a write
// error shows in the next round trip.
func (in *wlInput) send(object, opcode uint32, oob []byte, args ...uint32) {
	var b bytes.Buffer
	size := uint32(8 + 4*len(args))
	_ = binary.Write(&b, binary.LittleEndian, append([]uint32{object, size<<16 | opcode}, args...))
	_, _, _ = in.conn.WriteMsgUnix(b.Bytes(), oob, nil)
}

// roundTrip sends wl_display.sync and reads events until its callback is
// done, returning the globals that registry (when not 0) announced on the
// way, by interface name. A protocol error ends it with that error.
func (in *wlInput) roundTrip(registry uint32) (map[string]uint32, error) {
	callback := in.newID()
	in.send(wlDisplayID, wlDisplaySync, nil, callback)
	globals := map[string]uint32{}
	_ = in.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	for {
		var head [2]uint32
		if err := binary.Read(in.conn, binary.LittleEndian, &head); err != nil {
			return nil, fmt.Errorf("read wayland event: %w", err)
		}
		body := make([]byte, head[1]>>16-8)
		if _, err := io.ReadFull(in.conn, body); err != nil {
			return nil, fmt.Errorf("read wayland event: %w", err)
		}
		object, opcode := head[0], head[1]&0xffff
		switch {
		case object == wlDisplayID && opcode == wlDisplayError:
			return nil, fmt.Errorf("wayland protocol error: object %d code %d: %s",
				binary.LittleEndian.Uint32(body), binary.LittleEndian.Uint32(body[4:]), readString(body[8:]))
		case object == registry && opcode == wlRegistryGlobal:
			globals[readString(body[4:])] = binary.LittleEndian.Uint32(body)
		case object == callback && opcode == wlCallbackDone:
			return globals, nil
		}
	}
}

// wireString is s as Wayland string argument words.
func wireString(s string) []uint32 {
	b := append([]byte(s), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	words := []uint32{uint32(len(s) + 1)}
	for i := 0; i < len(b); i += 4 {
		words = append(words, binary.LittleEndian.Uint32(b[i:]))
	}
	return words
}

// readString reads a Wayland string argument at the start of b.
func readString(b []byte) string {
	if len(b) < 4 {
		return ""
	}
	n := int(binary.LittleEndian.Uint32(b))
	if n == 0 || 4+n > len(b) {
		return ""
	}
	return string(b[4 : 4+n-1])
}
