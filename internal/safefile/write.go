// Package safefile is the one way Fabric Planner writes and reads user
// files. A write never leaves a file half-written and never loses the old
// contents: the new bytes go to a temporary file in the same folder, are
// synced, and replace the target by a rename, after which the folder is
// synced too; the temporary files of earlier writes into that folder that
// were killed before they finished are removed first. A read takes
// regular files only, up to a size limit, and never blocks on a FIFO or a
// device.
package safefile

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrRefused is wrapped by errors for targets this package will not write
// or read: read-only files, folders, FIFOs, devices, files over the size
// limit. The user can fix those by choosing another file.
var ErrRefused = errors.New("refused")

// maxSymlinks bounds how many symbolic links a path may go through, as
// the kernel's own limit does (ELOOP).
const maxSymlinks = 40

// Write replaces the file at path with data. See WriteWith.
func Write(path string, data []byte) error {
	return WriteWith(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteWith replaces the file at path with what produce writes, so large
// outputs can stream. A symbolic link is followed and its target
// replaced. An existing file keeps its mode and, where the process may set
// it, its owner; a new file gets 0666 less the umask. A file with other
// hard links is rewritten in place (so every link sees the new contents)
// from a synced copy, and restored from a backup if that fails. Read-only
// files and anything that is not a regular file are refused (ErrRefused).
// On any error the target is as it was and no temporary file is left.
func WriteWith(path string, produce func(io.Writer) error) error {
	return WriteContext(context.Background(), path, produce)
}

// WriteContext is WriteWith that gives up when ctx is done (a signal, a
// cancelled export): produce's next write fails with the context's cause,
// the temporary file is removed and the target stays as it was. A hard-
// linked target is rewritten under an advisory lock (flock), so two
// writers never interleave in it.
//
// A target this process has read as input (through Read) is refused
// (ErrRefused), so no command or dialog writes over what it reads;
// WriteDocument saves a document over itself.
func WriteContext(ctx context.Context, path string, produce func(io.Writer) error) error {
	return write(ctx, path, produce, false)
}

// WriteDocument is Write for a document (a scenario file, the recovery
// file): the one write that may replace a file this process read, and
// only one it read as a document (ReadDocument), never a data input such
// as a quotes file.
func WriteDocument(path string, data []byte) error {
	return write(context.Background(), path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, true)
}

// write is WriteContext; doc lets it replace a file read as a document.
func write(ctx context.Context, path string, produce func(io.Writer) error, doc bool) error {
	target, info, wasInput, err := checkTarget(path, doc)
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	removeStale(filepath.Dir(target))
	if err := replace(ctx, target, info, produce); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if wasInput { // the document is still this run's input, now under a new inode
		if now, err := os.Stat(target); err == nil {
			noteRead(path, now, true)
		}
	}
	if err := syncDir(filepath.Dir(target)); err != nil {
		return fmt.Errorf("save %s: the file is written but its folder could not be synced: %w", path, err)
	}
	return nil
}

// checkTarget resolves path to the file a write replaces and checks it may:
// its folder exists, and a file there is writable and no input of this
// run (a document write, doc, may replace a document read, and then
// wasInput says it does). info is the file's, nil when there is none yet.
func checkTarget(path string, doc bool) (target string, info fs.FileInfo, wasInput bool, err error) {
	if target, err = resolve(path); err != nil {
		return "", nil, false, err
	}
	if dir, err := os.Stat(filepath.Dir(target)); err != nil || !dir.IsDir() {
		return "", nil, false, fmt.Errorf("%w: the folder %s does not exist (no such file or directory); create it or choose another",
			ErrRefused, filepath.Dir(target))
	}
	info, err = os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return target, nil, false, nil
	case err != nil:
		return "", nil, false, err
	}
	if err := writable(target, info); err != nil {
		return "", nil, false, err
	}
	if wasInput, err = checkNotInput(path, info, doc); err != nil {
		return "", nil, false, err
	}
	return target, info, wasInput, nil
}

// replace puts what produce writes in place of target (info: the file
// there, nil for none) through a synced temporary file: renamed over it,
// or copied into it in place when it has other hard links.
func replace(ctx context.Context, target string, info fs.FileInfo, produce func(io.Writer) error) error {
	tmp, release, err := writeTemp(filepath.Dir(target), info, func(w io.Writer) error {
		return produce(&ctxWriter{ctx: ctx, w: w})
	})
	if err != nil {
		return err
	}
	defer release()
	if ctx.Err() != nil {
		os.Remove(tmp)
		return context.Cause(ctx)
	}
	if info != nil && linkCount(info) > 1 {
		err = rewriteInPlace(target, tmp)
		os.Remove(tmp)
	} else if err = os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
	}
	return err
}

// resolve follows symbolic links at path (also dangling ones, whose target
// is then created) and returns the path of the file to replace. Each
// step resolves the folder part through the real folders first
// (filepath.EvalSymlinks), so "..", in the path or in a relative link,
// climbs out of the folder a link points to, as the kernel does, not out
// of the link's name.
func resolve(path string) (string, error) {
	for range maxSymlinks {
		path = realFolder(path)
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("%w: more than %d symbolic links", ErrRefused, maxSymlinks)
}

// realFolder is path with its folder part resolved through symbolic
// links; path as it was when the folder does not exist (the write then
// reports the missing folder).
func realFolder(path string) string {
	dir, base := filepath.Split(path)
	if dir == "" {
		return path
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return path
	}
	return filepath.Join(real, base)
}

// ctxWriter fails every write once ctx is done, so a long producer (the
// cable map of a large cluster) stops at its next write.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c *ctxWriter) Write(p []byte) (int, error) {
	if c.ctx.Err() != nil {
		return 0, context.Cause(c.ctx)
	}
	return c.w.Write(p)
}

// writable refuses what must not be replaced: non-regular files and files
// without write permission (checked on the mode bits, so root is refused
// too: a read-only plan is one its owner meant to keep).
func writable(path string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is %s, not a regular file; choose a file name", ErrRefused, filepath.Base(path), kind(info.Mode()))
	}
	if info.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%w: %s is read-only; make it writable or save under another name", ErrRefused, filepath.Base(path))
	}
	if err := syscall.Access(path, 2 /* W_OK */); err != nil {
		return fmt.Errorf("%w: you may not write %s (%v); save under another name", ErrRefused, filepath.Base(path), err)
	}
	return nil
}

// kind names a non-regular file type for messages.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// Temporary files are named ".fp-" and eight hex digits, then tempSuffix
// for a new file's contents or backupSuffix for the old contents of a
// hard-linked file being rewritten (kept when restoring them fails, so
// never removed as stale; see removeStale).
const (
	tempPrefix   = ".fp-"
	tempSuffix   = ".tmp"
	backupSuffix = ".bak"
)

// writeTemp writes produce's output to a new file in dir, synced and
// closed, with the mode and owner of old (nil: 0666 less the umask), and
// returns its path and the release of its lock (see createTemp), to call
// once the file is renamed or removed. The name is short so any valid
// target name works.
func writeTemp(dir string, old fs.FileInfo, produce func(io.Writer) error) (path string, release func(), err error) {
	return writeTempAs(dir, tempSuffix, 0o666, old, produce)
}

// writeTempAs is writeTemp naming the file with suffix and creating it
// with perm (less the umask) rather than 0666, so a private file is
// never readable by others, not even while empty.
func writeTempAs(dir, suffix string, perm fs.FileMode, old fs.FileInfo, produce func(io.Writer) error) (path string, release func(), err error) {
	f, unlock, err := createTemp(dir, suffix, perm)
	if err != nil {
		return "", nil, err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			unlock()
		}
	}()
	if err = produce(f); err != nil {
		return "", nil, err
	}
	if err = f.Sync(); err != nil {
		return "", nil, err
	}
	if old != nil {
		if err = f.Chmod(old.Mode().Perm()); err != nil {
			return "", nil, err
		}
		keepOwner(f, old)
	}
	if err = f.Close(); err != nil {
		return "", nil, err
	}
	return f.Name(), unlock, nil
}

// createTemp makes a new file ".fp-XXXXXXXX" and suffix in dir, created
// with perm (0666 for an ordinary file) so the umask applies as it does
// to any new file. It holds an exclusive advisory lock (flock) on the
// file, kept by a duplicate descriptor past the file's Close until
// release, so removeStale in another process never takes a file still
// being written for stale; where the file system cannot lock, release
// does nothing and the file's age alone protects it.
func createTemp(dir, suffix string, perm fs.FileMode) (f *os.File, release func(), err error) {
	for range 100 {
		var b [4]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, nil, err
		}
		name := filepath.Join(dir, tempPrefix+hex.EncodeToString(b[:])+suffix)
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		return f, holdLock(f), nil
	}
	return nil, nil, errors.New("no free temporary file name")
}

// holdLock takes f's advisory lock without waiting (f is new: no one else
// holds it) on a duplicate of its descriptor, and returns the release.
func holdLock(f *os.File) func() {
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return func() {}
	}
	if err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		syscall.Close(fd)
		return func() {}
	}
	return func() { syscall.Close(fd) }
}

// keepOwner gives f the owner and group of old where the process may;
// otherwise the new file is the writer's, as any new file would be.
func keepOwner(f *os.File, old fs.FileInfo) {
	if st, ok := old.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(st.Uid), int(st.Gid))
	}
}

func linkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// rewriteInPlace copies the complete, synced file src over target without
// replacing target's inode, so its other hard links see the new contents.
// The old contents are kept in a backup beside it until the copy is
// synced, and copied back if the copy fails. It holds an exclusive
// advisory lock (flock) on target throughout, so concurrent rewrites of
// one hard-linked file take turns instead of interleaving; where the file
// system cannot lock, the rewrite is refused.
func rewriteInPlace(target, src string) error {
	unlock, err := lockFile(target)
	if err != nil {
		return err
	}
	defer unlock()
	backup, release, err := writeTempAs(filepath.Dir(target), backupSuffix, 0o666, nil, func(w io.Writer) error { return copyFile(w, target) })
	if err != nil {
		return fmt.Errorf("back up before rewriting a hard-linked file: %w", err)
	}
	defer release()
	if err := overwrite(target, src); err != nil {
		if rerr := overwrite(target, backup); rerr != nil {
			return fmt.Errorf("%w; restoring the old contents failed too (%v): they are in %s", err, rerr, backup)
		}
		os.Remove(backup)
		return err
	}
	os.Remove(backup)
	return nil
}

// lockFile takes an exclusive advisory lock on path, waiting for other
// holders, and returns its release.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %s has other hard links and cannot be locked for an in-place rewrite here (%v); save under another name",
			ErrRefused, filepath.Base(path), err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// overwrite replaces target's contents with src's, in place, and syncs.
func overwrite(target, src string) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		f.Close()
		return err
	}
	defer in.Close()
	n, err := io.Copy(f, in)
	if err == nil {
		err = f.Truncate(n)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func copyFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
