package safefile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// ScenarioLimit is the largest scenario file read: a real scenario is a
// few kilobytes; the limit leaves room for long comments and a large
// [prices] table while keeping a hostile file from filling memory.
const ScenarioLimit = 1 << 20

// Read returns the contents of the regular file at path, or an error
// wrapping ErrRefused when path is not a regular file (a FIFO, a device
// such as /dev/zero, a folder) or holds more than limit bytes. It opens
// without blocking, so a FIFO with no writer cannot hang the caller. The
// file is noted as an input, which no later write of this process
// replaces (see WriteContext).
func Read(path string, limit int64) ([]byte, error) { return read(path, limit, false) }

// ReadDocument is Read for a document (a scenario, the recovery file):
// WriteDocument may save over it, other writes may not.
func ReadDocument(path string, limit int64) ([]byte, error) { return read(path, limit, true) }

// read is Read, noting the file as a document when doc is set.
func read(path string, limit int64, doc bool) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is %s, not a regular file", ErrRefused, filepath.Base(path), kind(info.Mode()))
	}
	if info.Size() > limit {
		return nil, tooLarge(path, limit)
	}
	noteRead(path, info, doc)
	// The size can grow while reading, or be 0 for generated files: read
	// one byte past the limit to tell.
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(path, limit)
	}
	return b, nil
}

func tooLarge(path string, limit int64) error {
	return fmt.Errorf("%w: %s is larger than the %s limit for this kind of file", ErrRefused, filepath.Base(path), sizeWords(limit))
}

// sizeWords writes a byte count as KiB or MiB.
func sizeWords(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d-byte", n)
}
