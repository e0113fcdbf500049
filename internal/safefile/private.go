package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// privateMode is the mode of a file WritePrivate writes: owner read and
// write only, whatever the umask, since such a file (the recovery file)
// holds a user's unsaved work.
const privateMode fs.FileMode = 0o600

// WritePrivate replaces the file at path with data for this user alone:
// the new file has mode 0600 and replaces the old by an atomic rename of
// a synced temporary file in the same folder. Unlike WriteDocument it
// follows no symbolic link at path: a link there (or a folder, a FIFO, a
// device) is refused with ErrRefused and left as it is, so a link planted
// at a predictable name cannot redirect the write to another file. A
// rename replaces a name, never what a link names, so a link made between
// the check and the rename is replaced, not followed. On any error the
// target is as it was and no temporary file is left.
func WritePrivate(path string, data []byte) error {
	if err := checkPrivate(path); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	removeStale(dir)
	tmp, release, err := writeTempAs(dir, tempSuffix, privateMode, nil, func(w io.Writer) error {
		if f, ok := w.(*os.File); ok { // exactly 0600, whatever the umask
			if err := f.Chmod(privateMode); err != nil {
				return err
			}
		}
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	defer release()
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("save %s: the file is written but its folder could not be synced: %w", path, err)
	}
	return nil
}

// checkPrivate refuses a WritePrivate target that is not a regular file
// or no file at all, looking at path itself (Lstat), not through a link.
func checkPrivate(path string) error {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case info.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: %s is a symbolic link, and this file is never written through one; remove the link",
			ErrRefused, filepath.Base(path))
	case !info.Mode().IsRegular():
		return fmt.Errorf("%w: %s is %s, not a regular file; remove it", ErrRefused, filepath.Base(path), kind(info.Mode()))
	}
	return nil
}
