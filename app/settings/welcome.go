package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/asktray/asktray/app/atomicfile"
)

// WelcomedFile in the data dir says the first-run window was shown (its
// content is when). The app is on its first run while the file is missing,
// whatever else the data dir holds: settings.json may be written by
// 'asktray config' or never. A test harness writes it before it starts the
// app so that no window comes up unasked.
const WelcomedFile = "welcomed"

// Welcomed reports whether the first-run window was shown for data dir
// dir. A file that cannot be read for another reason than its absence
// counts as shown: the window is a courtesy, never worth a window each
// start. It blocks on the file system only; any goroutine may call it.
func Welcomed(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, WelcomedFile))
	return !errors.Is(err, fs.ErrNotExist)
}

// MarkWelcomed records that the first-run window was shown for dir
// (0600). It blocks on the file system only; any goroutine may call it.
func MarkWelcomed(dir string) error {
	line := time.Now().UTC().Format(time.RFC3339) + "\n"
	if err := atomicfile.Write(filepath.Join(dir, WelcomedFile), []byte(line), 0o600); err != nil {
		return fmt.Errorf("mark the first run done: %w", err)
	}
	return nil
}
