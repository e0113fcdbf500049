package app

import (
	"bytes"
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

// recoveryFile is what a recovery file holds: the file the edits belong
// to, when they were written, the inputs that parse and the text of
// those that do not.
type recoveryFile struct {
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
	rf := recoveryFile{File: u.m.Path(), Written: time.Now().UTC().Truncate(time.Second), Typed: u.m.Typed(), Scenario: u.m.Scenario()}
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

// write puts snapshot seq on disk unless a later one is there already.
func (r *recovery) write(seq uint64, rf recoveryFile) error {
	var b bytes.Buffer
	b.WriteString("# Fabric Planner recovery file: unsaved edits, offered back at the next start.\n")
	if err := toml.NewEncoder(&b).Encode(rf); err != nil {
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
	if err := safefile.WriteDocument(r.path, b.Bytes()); err != nil {
		return err
	}
	r.written = seq
	return nil
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

// readRecovery reads and decodes a recovery file.
func readRecovery(path string) (recoveryFile, error) {
	var rf recoveryFile
	src, err := safefile.ReadDocument(path, safefile.ScenarioLimit)
	if err != nil {
		return rf, err
	}
	if _, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&rf); err != nil {
		return rf, fmt.Errorf("recovery file %s: %w", path, err)
	}
	return rf, nil
}

// offerRecovery asks whether to take back the edits of a run that ended
// without saving them; true when it asked (the caller then opens nothing
// else). Yes restores them over their file (or untitled); no removes the
// file. The file is read off the UI goroutine.
func (u *UI) offerRecovery(orElse func()) bool {
	path := leftRecovery(u.rec.dir)
	if path == "" {
		return false
	}
	u.background("reading the recovery file", func() {
		rf, err := readRecovery(path)
		var base planner.Scenario
		var src []byte
		baseErr := errors.New("untitled")
		if err == nil && rf.File != "" {
			base, src, baseErr = scenariofile.LoadSource(rf.File, u.cat)
		}
		u.onUI(func() {
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
			u.decide("Recover unsaved edits?",
				fmt.Sprintf("Fabric Planner ended with unsaved edits of %s (%s). Recover them? No deletes them.",
					name, rf.Written.Local().Format("2 Jan 2006 15:04")),
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
		})
	})
	return true
}

// setStatusWarning shows text in the status line as a warning.
func (u *UI) setStatusWarning(text string) { u.setStatus(text, widget.WarningImportance) }
