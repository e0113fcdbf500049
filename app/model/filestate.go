package model

import (
	"io/fs"
	"time"
)

// FileStamp is what tells whether a file changed on disk: its
// modification time and size when the scenario was opened or saved.
type FileStamp struct {
	ModTime time.Time
	Size    int64
}

// StampOf is the stamp of a file's info; the zero stamp for nil.
func StampOf(info fs.FileInfo) FileStamp {
	if info == nil {
		return FileStamp{}
	}
	return FileStamp{ModTime: info.ModTime(), Size: info.Size()}
}

// SetStamp records the file's stamp as opened or saved (Load and
// MarkSaved clear it).
func (m *Model) SetStamp(st FileStamp) { m.stamp = st }

// ChangedOnDisk reports whether the scenario's file, whose info now is
// info (nil: gone), differs from when it was opened or saved; false when
// there is no file or no stamp.
func (m *Model) ChangedOnDisk(info fs.FileInfo) bool {
	if m.path == "" || m.stamp == (FileStamp{}) {
		return false
	}
	now := StampOf(info)
	return !now.ModTime.Equal(m.stamp.ModTime) || now.Size != m.stamp.Size
}
