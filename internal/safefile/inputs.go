package safefile

import (
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// A write never replaces a file this process has read as input: every
// user file is read through Read, which notes the file's identity
// (device and inode, so a link or another spelling of its path is the
// same file), and every output goes through WriteContext, which refuses
// a target noted here. A command or a save dialog added later cannot
// forget the check, as none of them makes it. A document (a scenario,
// the recovery file) is read with ReadDocument and may be saved over
// itself, or over another document, with WriteDocument; a data input (a
// quotes file) is replaced by nothing.

// fileID is a file's identity on its file system.
type fileID struct{ dev, ino uint64 }

// idOf is info's identity; ok is false where the system gives none.
func idOf(info fs.FileInfo) (id fileID, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true // Dev is narrower on some systems
}

// input is a file read: the path it was read by (for messages) and
// whether it was read as a document, which WriteDocument may replace.
type input struct {
	path     string
	document bool
}

// readFiles are the files this process has read through Read and
// ReadDocument, by identity.
var readFiles = struct {
	sync.Mutex
	paths map[fileID]input
}{paths: map[fileID]input{}}

// noteRead records info, a file opened by path, as an input (a document
// when doc is set).
func noteRead(path string, info fs.FileInfo, doc bool) {
	id, ok := idOf(info)
	if !ok {
		return
	}
	readFiles.Lock()
	defer readFiles.Unlock()
	readFiles.paths[id] = input{path: path, document: doc} // the latest: an older note may be stale
}

// readAs is the path the file target was read by, when this process has
// read it through Read. A note whose path no longer leads to that file
// (the input was deleted or replaced, and its inode may now be another
// file's) is stale: it is dropped and answers no.
func readAs(info fs.FileInfo) (input, bool) {
	id, ok := idOf(info)
	if !ok {
		return input{}, false
	}
	readFiles.Lock()
	in, seen := readFiles.paths[id]
	readFiles.Unlock()
	if !seen {
		return input{}, false
	}
	if now, err := os.Stat(in.path); err != nil || !sameID(now, id) {
		readFiles.Lock()
		delete(readFiles.paths, id)
		readFiles.Unlock()
		return input{}, false
	}
	return in, true
}

// sameID says whether info is the file id names.
func sameID(info fs.FileInfo, id fileID) bool {
	got, ok := idOf(info)
	return ok && got == id
}

// checkNotInput refuses target, an existing file to be replaced, when
// this process read it as input; a document write (doc) may replace a
// file read as a document, and then reports that it did (wasInput).
func checkNotInput(path string, info fs.FileInfo, doc bool) (wasInput bool, err error) {
	in, seen := readAs(info)
	if !seen {
		return false, nil
	}
	if doc && in.document {
		return true, nil
	}
	same := ""
	if in.path != path {
		same = fmt.Sprintf(" (the same file as %s)", in.path)
	}
	return false, fmt.Errorf("%w: %s is a file this run reads as input%s; write to another file", ErrRefused, path, same)
}
