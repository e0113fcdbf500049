package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"fabricplan/internal/safefile"
	"fabricplan/internal/textfmt"
)

// ExitInterrupted is the exit code of a command stopped by SIGINT,
// SIGTERM or SIGHUP while writing its output (128 + SIGINT, as shells
// report an interrupted command).
const ExitInterrupted = 130

// errInterrupted marks a write a signal stopped; nothing was written.
var errInterrupted = errors.New("interrupted")

// maxNameBytes is the longest file name (one path element) most file
// systems take (NAME_MAX on Linux, macOS and Windows' NTFS in UTF-16
// units is close); longer names are a usage error, said before any work.
const maxNameBytes = 255

// checkOutput refuses, before any work, an --out that ends in a slash (a
// folder), whose extension does not match the format the command writes
// (wantExt, with the dot, any of them) or is all its name, whose name is
// longer than the file system takes, or that is one
// of the command's input files (the same file by device and inode, so a
// link or another spelling of the path is caught too).
func checkOutput(out string, inputs []string, wantExt ...string) error {
	if strings.HasSuffix(out, "/") || strings.HasSuffix(out, string(filepath.Separator)) {
		return usagef("--out %s ends in a slash, which names a folder: give a file name, such as %s",
			textfmt.TerminalText(out), textfmt.TerminalText(filepath.Join(out, "fabricplan"+wantExt[0])))
	}
	if len(filepath.Base(out)) > maxNameBytes {
		return usagef("--out: the file name is %d bytes; most file systems take at most %d", len(filepath.Base(out)), maxNameBytes)
	}
	ext := strings.ToLower(filepath.Ext(out))
	ok := false
	for _, w := range wantExt {
		ok = ok || ext == w
	}
	if !ok {
		return usagef("--out %s: this output is %s; end the name in %s", textfmt.TerminalText(filepath.Base(out)), formatWord(wantExt[0]), strings.Join(wantExt, " or "))
	}
	if len(filepath.Base(out)) == len(ext) {
		return usagef("--out %s has no name before %s (it would be a hidden file named only %s); give one, such as %s",
			textfmt.TerminalText(out), ext, ext, textfmt.TerminalText(filepath.Join(filepath.Dir(out), "fabricplan"+ext)))
	}
	outInfo, err := os.Stat(out)
	if err != nil {
		return nil // a new file is no input
	}
	for _, in := range inputs {
		if inInfo, err := os.Stat(in); err == nil && os.SameFile(outInfo, inInfo) {
			return usagef("--out %s is the scenario this command reads (%s): choose another output file",
				textfmt.TerminalText(out), textfmt.TerminalText(in))
		}
	}
	return nil
}

// formatWord names the format of an extension for messages.
func formatWord(ext string) string {
	switch ext {
	case ".csv":
		return "CSV"
	case ".json":
		return "JSON"
	case ".topo":
		return "an IBDM topology file"
	case ".pdf":
		return "a PDF"
	}
	return "a " + strings.ToUpper(strings.TrimPrefix(ext, ".")) + " file"
}

// writeOut writes path through safefile with SIGINT, SIGTERM and SIGHUP
// caught for the length of the write: a signal stops the producer at its
// next write, the temporary file is removed and the command ends with
// errInterrupted instead of dying with a half-written temp file beside
// the target. A second signal acts as usual.
func writeOut(path string, produce func(io.Writer) error) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// Once a signal has stopped the write, the next one kills as it
	// would without us.
	context.AfterFunc(ctx, stop)
	err := safefile.WriteContext(ctx, path, produce)
	if ctx.Err() != nil && err != nil {
		return fmt.Errorf("%w (%v): %s was not written", errInterrupted, context.Cause(ctx), textfmt.TerminalText(path))
	}
	return err
}

// wrote says on stderr which file a command wrote, its name cleaned for
// the terminal.
func wrote(env *cliEnv, path, what string) {
	if what != "" {
		what = " (" + what + ")"
	}
	fmt.Fprintf(env.stderr, "wrote %s%s\n", textfmt.TerminalText(path), what)
}

// cleanWriter passes text on without control characters (but newline and
// tab) and bidi controls, whatever printed it: the last guard between a
// name, a path or a key typed in a file and the user's terminal, where
// ESC can retitle or clear it and U+202E reverses what follows. Bytes
// that are not UTF-8 become U+FFFD. A character split over two writes
// is held until it is whole.
type cleanWriter struct {
	w       io.Writer
	pending []byte
	// in and out are the last write's buffers, kept for the next when
	// small: a cable map's 460 MB in 4 kB writes would otherwise
	// allocate it twice over.
	in, out []byte
}

// cleanKeep is the largest buffer a cleanWriter keeps between writes.
const cleanKeep = 64 << 10

func (c *cleanWriter) Write(p []byte) (int, error) {
	buf := append(append(c.in[:0], c.pending...), p...)
	out := c.out[:0]
	if cap(out) < len(buf) {
		out = make([]byte, 0, len(buf))
	}
	out, i := cleanText(out, buf)
	c.pending = append(c.pending[:0], buf[i:]...)
	c.in, c.out = nil, nil
	if cap(buf) <= cleanKeep && cap(out) <= cleanKeep {
		c.in, c.out = buf, out
	}
	if _, err := c.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// cleanText appends buf to out without control characters (but newline
// and tab) and bidi controls, bytes that are not UTF-8 as U+FFFD; it
// stops before a character buf holds only the start of, and returns
// how much of buf it took.
func cleanText(out, buf []byte) ([]byte, int) {
	i := 0
	for i < len(buf) {
		b := buf[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != 0x7f || b == '\n' || b == '\t' {
				out = append(out, b)
			}
			i++
			continue
		}
		if !utf8.FullRune(buf[i:]) {
			break
		}
		r, size := utf8.DecodeRune(buf[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = utf8.AppendRune(out, utf8.RuneError)
		case !unicode.IsControl(r) && !unicode.Is(unicode.Bidi_Control, r):
			out = append(out, buf[i:i+size]...)
		}
		i += size
	}
	return out, i
}
