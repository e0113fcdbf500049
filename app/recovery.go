package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"fyne.io/fyne/v2/widget"
	"github.com/BurntSushi/toml"

	"fabricplan/internal/safefile"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/scenariofile"
)

// recoveryEvery is how often unsaved edits are written to the recovery
// file while the scenario is dirty: a crash or a power cut loses at most
// this much typing.
const recoveryEvery = 3 * time.Second

// whatRecovery names the recovery write in a crash report; a panic in it
// is not answered with another write.
const whatRecovery = "saving the recovery file"

// recoverySchema is the layout of the recovery file this version writes
// and the newest it reads: a file from a later version is refused, not
// decoded loosely. Version 1 added the schema and the completeness line.
const recoverySchema = 1

// recoveryEnd starts the last line of a whole recovery file, followed by
// the SHA-256 of everything before that line: a file cut short (a power
// cut mid-write on a file system that reorders writes, a full disk, a
// copy) or altered lacks a matching line and is read as partial.
const recoveryEnd = "# end of recovery file, sha256 "

// recoveryTried bounds how many ends a partial recovery file is cut back
// to, a line at a time, to find the part that still decodes: a recovery
// file is a few hundred lines, and a file damaged further back than this
// is refused rather than searched at length.
const recoveryTried = 1000

// recoveryWork bounds the bytes all those attempts decode together, so a
// damaged file of many lines near the size limit is refused in well under
// a second instead of decoded a thousand times over.
const recoveryWork = 16 << 20

// recoveryNamed bounds how many missing keys a partial-recovery question
// names before it counts the rest.
const recoveryNamed = 8

// recoveryFile is what a recovery file holds: its schema, the file the
// edits belong to, when they were written, the inputs that parse and the
// text of those that do not.
type recoveryFile struct {
	Schema   int               `toml:"schema"`
	File     string            `toml:"file"`
	Written  time.Time         `toml:"written"`
	Typed    map[string]string `toml:"typed"`
	Scenario planner.Scenario  `toml:"scenario"`
}

// recovery keeps the window's unsaved edits in a file of its own,
// recovery-PID.toml in the user's config folder, so a crash, a kill or a
// power cut does not lose them; the next start offers them back.
type recovery struct {
	dir  string // "" when recovery is off (screenshots, most tests)
	path string

	mu      sync.Mutex // serialises writes; seq orders them
	written uint64     // the snapshot on disk (0: none); under mu
	floor   uint64     // snapshots up to this one are not to be written; under mu
	seq     uint64     // the latest snapshot taken; UI goroutine only
	lastGen uint64     // the model generation last snapshotted; UI goroutine only
	stop    chan struct{}
	stopped sync.Once
}

// recoveryDir is where recovery files live: opts.RecoveryDir, else the
// user's config folder (os.UserConfigDir) unless the UI is ephemeral.
func recoveryDir(opts Options) string {
	if opts.RecoveryDir != "" || opts.Ephemeral {
		return opts.RecoveryDir
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "fabricplanner")
}

// startRecovery sets the recovery file up and starts its timer.
func (u *UI) startRecovery() {
	r := &u.rec
	r.dir = recoveryDir(u.opts)
	r.stop = make(chan struct{})
	if r.dir == "" {
		return
	}
	r.path = filepath.Join(r.dir, fmt.Sprintf("recovery-%d.toml", os.Getpid()))
	go func() {
		t := time.NewTicker(recoveryEvery)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				u.onUI(u.autosave)
			case <-r.stop:
				return
			}
		}
	}()
}

// stopRecovery ends the timer; with remove, the recovery file goes too
// (a clean quit: the user saved or chose not to).
func (u *UI) stopRecovery(remove bool) {
	u.rec.stopped.Do(func() { close(u.rec.stop) })
	if remove {
		u.clearRecovery()
	}
}

// autosave runs on the UI goroutine every recoveryEvery: while there are
// unsaved edits it hands a snapshot to a background write; once there are
// none it removes the file.
func (u *UI) autosave() {
	r := &u.rec
	if r.path == "" {
		return
	}
	onDisk := r.onDisk()
	if !u.m.Unsaved() {
		if onDisk != 0 {
			u.clearRecovery()
		}
		return
	}
	if u.m.Gen() == r.lastGen && onDisk != 0 && len(u.m.Typed()) == 0 {
		return // nothing new since the last write
	}
	u.saveRecoveryNow()
}

// saveRecoveryNow snapshots the inputs on the UI goroutine and writes
// them to the recovery file in the background.
func (u *UI) saveRecoveryNow() {
	r := &u.rec
	if r.path == "" || !u.m.Unsaved() {
		return
	}
	r.seq++
	r.lastGen = u.m.Gen()
	seq := r.seq
	rf := recoveryFile{Schema: recoverySchema, File: u.m.Path(), Written: time.Now().UTC().Truncate(time.Second), Typed: u.m.Typed(), Scenario: u.m.Scenario()}
	u.background(whatRecovery, func() {
		if err := r.write(seq, rf); err != nil {
			u.onUI(func() { u.setStatusWarning("Could not write the recovery file: " + err.Error()) })
		}
	})
}

// onDisk is the snapshot the file holds (0: none).
func (r *recovery) onDisk() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.written
}

// write puts snapshot seq on disk unless a later one is there already:
// owner-only, atomically, never through a link (safefile.WritePrivate).
func (r *recovery) write(seq uint64, rf recoveryFile) error {
	b, err := encodeRecovery(rf)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if seq <= r.written || seq <= r.floor {
		return nil
	}
	if err := os.MkdirAll(r.dir, 0o700); err != nil {
		return err
	}
	if err := safefile.WritePrivate(r.path, b); err != nil {
		return err
	}
	r.written = seq
	return nil
}

// encodeRecovery is the text of a recovery file: a comment, the TOML,
// and the completeness line (recoveryEnd) over all that precedes it.
func encodeRecovery(rf recoveryFile) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# Fabric Planner recovery file: unsaved edits, offered back at the next start.\n")
	if err := toml.NewEncoder(&b).Encode(rf); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b.Bytes())
	b.WriteString(recoveryEnd + hex.EncodeToString(sum[:]) + "\n")
	return b.Bytes(), nil
}

// clearRecovery removes this window's recovery file.
func (u *UI) clearRecovery() {
	r := &u.rec
	if r.path == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.written, r.floor = 0, r.seq // a write still queued is older: it must not bring the file back
	if err := os.Remove(r.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		u.setStatusWarning("Could not remove the recovery file: " + err.Error())
	}
}

// leftRecovery finds the newest recovery file another run left behind
// (its process is gone), or "".
func leftRecovery(dir string) string {
	if dir == "" {
		return ""
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	best, bestTime := "", time.Time{}
	for _, e := range entries {
		pid, ok := recoveryPID(e.Name())
		if !ok || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if best == "" || info.ModTime().After(bestTime) {
			best, bestTime = filepath.Join(dir, e.Name()), info.ModTime()
		}
	}
	return best
}

// recoveryPID is the process ID in a recovery file's name.
func recoveryPID(name string) (int, bool) {
	s, ok := strings.CutPrefix(name, "recovery-")
	if !ok {
		return 0, false
	}
	s, ok = strings.CutSuffix(s, ".toml")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(s)
	return pid, err == nil && pid > 0
}

// processAlive reports whether a process with this ID runs (another
// window whose recovery file is its own).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// readRecovery reads a whole recovery file; a partial one (see
// decodeRecovery) is an error naming what it lacks.
func readRecovery(path string) (recoveryFile, error) {
	src, err := safefile.ReadDocument(path, safefile.ScenarioLimit)
	if err != nil {
		return recoveryFile{}, err
	}
	rf, missing, err := decodeRecovery(src, func(string) planner.Scenario { return defaultScenario() })
	if err == nil && missing != nil {
		err = fmt.Errorf("recovery file %s is partial: %s", path, missingWords(missing))
	}
	return rf, err
}

// decodeRecovery decodes a recovery file strictly. A whole file (its
// completeness line matches) must be of a schema this version reads and
// hold only keys it knows; missing is then nil. A file without a matching
// completeness line is partial: the longest run of whole lines from its
// start that decodes is decoded over the scenario base gives for the
// file it names, and missing lists the keys a whole file would have held
// that it lacks ("the end of the file" when none can be named). A file
// of a later schema, or one nothing of which decodes, is an error.
func decodeRecovery(src []byte, base func(file string) planner.Scenario) (rf recoveryFile, missing []string, err error) {
	body, whole := cutRecoveryEnd(src)
	if whole {
		md, err := toml.NewDecoder(bytes.NewReader(body)).Decode(&rf)
		if err != nil {
			return rf, nil, fmt.Errorf("recovery file: %w", err)
		}
		if err := checkRecoverySchema(rf.Schema, md.IsDefined("schema")); err != nil {
			return rf, nil, err
		}
		if und := md.Undecoded(); len(und) > 0 {
			return rf, nil, fmt.Errorf("recovery file: unknown key %s; it was not written by this version of Fabric Planner", und[0])
		}
		return rf, nil, nil
	}
	lines := bytes.SplitAfter(body, []byte("\n"))
	if n := len(lines); n > 0 && !bytes.HasSuffix(lines[n-1], []byte("\n")) {
		lines = lines[:n-1] // a line cut short may still parse, to a wrong value ("gpus = 20" of 2048)
	}
	work := 0
	for n, tried := len(lines), 0; n > 0 && tried < recoveryTried && work < recoveryWork; n, tried = n-1, tried+1 {
		part := bytes.Join(lines[:n], nil)
		work += len(part)
		var probe recoveryFile
		if _, err := toml.Decode(string(part), &probe); err != nil {
			continue
		}
		if probe.Schema > recoverySchema { // none (an earlier version's file, or cut in the header) is partial
			return rf, nil, checkRecoverySchema(probe.Schema, true)
		}
		rf.Scenario = base(probe.File)
		md, err := toml.NewDecoder(bytes.NewReader(part)).Decode(&rf)
		if err != nil {
			return rf, nil, fmt.Errorf("recovery file: %w", err)
		}
		return rf, recoveryMissing(rf, md), nil
	}
	return rf, nil, errors.New("recovery file: damaged too far back; nothing of it could be read")
}

// cutRecoveryEnd splits off the completeness line; whole when it is there
// and its checksum matches the rest.
func cutRecoveryEnd(src []byte) (body []byte, whole bool) {
	i := bytes.LastIndex(src, []byte(recoveryEnd))
	if i < 0 || (i > 0 && src[i-1] != '\n') {
		return src, false
	}
	sum := sha256.Sum256(src[:i])
	if string(src[i+len(recoveryEnd):]) != hex.EncodeToString(sum[:])+"\n" {
		return src, false
	}
	return src[:i], true
}

// checkRecoverySchema refuses a recovery file of a later schema (or, when
// whole, one without its schema).
func checkRecoverySchema(schema int, defined bool) error {
	switch {
	case schema > recoverySchema:
		return fmt.Errorf("recovery file: written by a later version of Fabric Planner (schema %d; this version reads up to %d); open it with that version",
			schema, recoverySchema)
	case !defined || schema < 1:
		return fmt.Errorf("recovery file: no schema %d or earlier; it was not written by this version of Fabric Planner", recoverySchema)
	}
	return nil
}

// recoveryMissing lists the keys a whole recovery file holding rf would
// have that the partial one decoded (md) lacks, apart from typed text
// (only what was typed is there); ["the end of the file"] when the file
// lacks none of them (only its completeness line).
func recoveryMissing(rf recoveryFile, md toml.MetaData) []string {
	rf.Schema = recoverySchema
	full, err := encodeRecovery(rf)
	var ref toml.MetaData
	if err == nil {
		var probe recoveryFile
		ref, err = toml.Decode(string(full), &probe)
	}
	if err != nil {
		return []string{"the end of the file"}
	}
	have := map[string]bool{}
	for _, k := range md.Keys() {
		have[k.String()] = true
	}
	var missing []string
	for _, k := range ref.Keys() {
		if k[0] != "typed" && !have[k.String()] {
			missing = append(missing, k.String())
		}
	}
	if len(missing) == 0 {
		return []string{"the end of the file"}
	}
	return missing
}

// missingWords names up to recoveryNamed missing keys, then counts the
// rest.
func missingWords(missing []string) string {
	if len(missing) <= recoveryNamed {
		return "missing " + strings.Join(missing, ", ")
	}
	return fmt.Sprintf("missing %s and %d more", strings.Join(missing[:recoveryNamed], ", "), len(missing)-recoveryNamed)
}

// offerRecovery asks whether to take back the edits of a run that ended
// without saving them; true when it asked (the caller then opens nothing
// else). Yes restores them over their file (or untitled); no removes the
// file. A partial file is offered as partial, naming what it lacks, which
// stays as in the file the edits belong to; one that cannot be read is
// set aside and reported. The file is read off the UI goroutine.
func (u *UI) offerRecovery(orElse func()) bool {
	path := leftRecovery(u.rec.dir)
	if path == "" {
		return false
	}
	u.background("reading the recovery file", func() {
		var base planner.Scenario
		var src []byte
		baseErr := errors.New("untitled")
		loaded := false
		loadBase := func(file string) planner.Scenario {
			if file != "" && !loaded {
				loaded = true
				base, src, baseErr = scenariofile.LoadSource(file, u.cat)
			}
			if baseErr != nil {
				return defaultScenario()
			}
			return base
		}
		text, err := safefile.ReadDocument(path, safefile.ScenarioLimit)
		var rf recoveryFile
		var missing []string
		if err == nil {
			rf, missing, err = decodeRecovery(text, loadBase)
		}
		if err == nil {
			loadBase(rf.File) // a whole file was decoded without it
		}
		if err != nil {
			err = fmt.Errorf("%s: %w", path, err)
		}
		u.onUI(func() { u.askRecovery(path, rf, missing, err, base, baseErr, src, orElse) })
	})
	return true
}

// askRecovery is offerRecovery's question, on the UI goroutine, with what
// was read: the file rf, what it lacks (nil: whole) or the error that
// refused it, and the scenario file it belongs to (base, its text src;
// baseErr when there is none).
func (u *UI) askRecovery(path string, rf recoveryFile, missing []string, err error,
	base planner.Scenario, baseErr error, src []byte, orElse func()) {
	if err != nil {
		// Set aside, so it is not offered (and refused) at every start.
		aside := path + ".unreadable"
		if rerr := os.Rename(path, aside); rerr == nil {
			err = fmt.Errorf("%w; it is kept as %s", err, aside)
		}
		u.showError(err)
		orElse()
		return
	}
	name := "an untitled scenario"
	if rf.File != "" {
		name = textfmt.DisplayName(filepath.Base(rf.File))
	}
	when := "time unknown"
	if !rf.Written.IsZero() {
		when = rf.Written.Local().Format("2 Jan 2006 15:04")
	}
	title, msg := "Recover unsaved edits?", fmt.Sprintf("Fabric Planner ended with unsaved edits of %s (%s). Recover them? No deletes them.", name, when)
	if missing != nil {
		keep := "the defaults"
		if baseErr == nil {
			keep = "the saved file"
		}
		title = "Recover partial edits?"
		msg = fmt.Sprintf("Fabric Planner ended with unsaved edits of %s (%s), but the recovery file is partial: %s. Recover what it holds, keeping %s for the rest? No deletes it.",
			name, when, missingWords(missing), keep)
	}
	u.decide(title, msg,
		func() {
			file := rf.File
			if baseErr != nil {
				base, file, src = defaultScenario(), "", nil
			}
			u.m.Recover(base, file, string(src), rf.Scenario, rf.Typed)
			u.inputs.fill()
			u.changed()
			os.Remove(path)
			u.saveRecoveryNow() // now this run's
		},
		func() {
			os.Remove(path)
			orElse()
		})
}

// setStatusWarning shows text in the status line as a warning.
func (u *UI) setStatusWarning(text string) { u.setStatus(text, widget.WarningImportance) }
