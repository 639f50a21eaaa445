package xvfbtest

import (
	"bytes"
	"context"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2/theme"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/ui/internal/uitheme"
)

// TestTrayMenuOverDBus drives the real binary's tray menu as a panel does,
// over com.canonical.dbusmenu: with a question pending the menu has an
// "Open in browser" submenu naming it, and clicking Settings… maps the
// settings window. ASKTRAY_SHOTS=DIR keeps a screenshot of it.
func TestTrayMenuOverDBus(t *testing.T) {
	d := newDesktop(t)
	w := d.watcher
	reg := w.wait(t, 20*time.Second)
	s := d.client(t, "claude-code")
	if _, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "ask_confirm",
		Arguments: map[string]any{"question": "Delete the build directory?", "wait": false}}); err != nil {
		t.Fatal(err)
	}
	d.waitWindow(t, "claude-code asks", 20*time.Second)

	menu := d.menuOf(t, reg.sender)
	root := menu.until(t, "no Open in browser submenu naming the question", func(root menuNode) bool {
		_, web, ok := root.find("Open in browser")
		return ok && slices.Equal(web.labels(), []string{"Open in browser", "claude-code: Delete the build directory?"})
	})
	// The question's item carries a dot in claude-code's colour as
	// dbusmenu's icon-data, PNG bytes the panel draws (issue 38 item 12).
	_, item, _ := root.find("claude-code: Delete the build directory?")
	data, _ := item.Props["icon-data"].Value().([]byte)
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the question's menu item has no PNG icon-data (%d bytes): %v", len(data), err)
	}
	mid := color.NRGBAModel.Convert(img.At(img.Bounds().Dx()/2, img.Bounds().Dy()/2))
	if mid != color.NRGBAModel.Convert(uitheme.AgentColor("claude-code", theme.VariantDark)) &&
		mid != color.NRGBAModel.Convert(uitheme.AgentColor("claude-code", theme.VariantLight)) {
		t.Errorf("the question's icon is %v, not claude-code's colour", mid)
	}
	if _, settings, ok := root.find("Settings…"); !ok || settings.Props["icon-data"].Value() != nil {
		t.Errorf("Settings… has an icon or is missing: %v", settings)
	}
	menu.click(t, root, "Settings…")
	d.waitWindow(t, "Asktray settings", 20*time.Second)
	if dir := os.Getenv("ASKTRAY_SHOTS"); dir != "" {
		time.Sleep(500 * time.Millisecond) // let it paint
		d.screenshot(t, filepath.Join(dir, "xvfb-settings.png"))
	}
}
