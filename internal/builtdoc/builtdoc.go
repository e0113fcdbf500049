package builtdoc

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
)

// Doc is one data document decoded when the program was built: New
// makes a fresh copy of what the document decodes to, and SHA256 is the
// hex SHA-256 of the document's bytes it was made from.
type Doc[T any] struct {
	SHA256 string
	New    func() *T
}

// For is a fresh copy of what src decodes to when d was made from src;
// ok is false when d is nil or was made from other bytes.
func (d *Doc[T]) For(src []byte) (v *T, ok bool) {
	if d == nil || d.SHA256 != Sum(src) {
		return nil, false
	}
	return d.New(), true
}

// Decode is what src decodes to: d's copy when d was made from src,
// else decode(src).
func Decode[T any](d *Doc[T], src []byte, decode func([]byte) (*T, error)) (*T, error) {
	if v, ok := d.For(src); ok {
		return v, nil
	}
	return decode(src)
}

// Sum is the hex SHA-256 of src, the key a Doc is made under.
func Sum(src []byte) string {
	s := sha256.Sum256(src)
	return hex.EncodeToString(s[:])
}

// Check checks d, set by the generated Go file f from the document src,
// against decode (the TOML decoder the document otherwise goes through):
// f must be what Source writes for src now (write set: it is rewritten,
// and d is checked when the package is built again), and d must give
// for src exactly what decode makes of it.
func Check[T any](d *Doc[T], src []byte, decode func([]byte) (*T, error), f File, write bool) error {
	want, err := decode(src)
	if err != nil {
		return err
	}
	text, err := Source(f, src, want)
	if err != nil {
		return err
	}
	old, err := os.ReadFile(f.Path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read %s: %w", f.Path, err)
	}
	if write {
		if bytes.Equal(old, text) {
			return nil
		}
		if err := os.WriteFile(f.Path, text, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", f.Path, err)
		}
		return nil
	}
	if !bytes.Equal(old, text) {
		return fmt.Errorf("%s is stale (its document or the file itself was edited): run %s", f.Path, f.Gen)
	}
	got, ok := d.For(src)
	if !ok {
		return fmt.Errorf("%s: %s was not made from these bytes: run %s", f.Path, f.Var, f.Gen)
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("%s: %s differs from what the TOML decodes to (a value Source cannot write)", f.Path, f.Var)
	}
	return nil
}

// CheckData is Check for the document named doc in fsys (the embedded
// data/ folder): it reads the document, and f's header names it
// "data/" + doc unless f.From says otherwise.
func CheckData[T any](fsys fs.FS, doc string, d *Doc[T], decode func([]byte) (*T, error), f File, write bool) error {
	src, err := fs.ReadFile(fsys, doc)
	if err != nil {
		return err
	}
	if f.From == "" {
		f.From = "data/" + doc
	}
	return Check(d, src, decode, f, write)
}
