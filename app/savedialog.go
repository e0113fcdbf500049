package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// saveDialog asks for a file name and a folder and hands back a path. It
// never creates, opens or truncates the file: Fyne's own save dialog
// opens (and so truncates) the chosen file before its callback runs, so a
// failed write would leave the user's file empty. The write itself goes
// through safefile, which replaces the file only when the new one is
// complete.
type saveDialog struct {
	u   *UI
	ext string // default extension, with the dot
	// allowed are the extensions the write takes (default: ext alone);
	// another is refused before any work.
	allowed []string
	folder  string
	name    *widget.Entry
	where   *widget.Label
	dlg     *dialog.CustomDialog
	write   func(path string) error
}

// savePathDialog asks where to write, under title; ext is the extension
// added to a name without one. write runs once the user confirms (and agrees to
// replace an existing file); its error is shown.
func (u *UI) savePathDialog(title, name, ext string, write func(path string) error) *saveDialog {
	sd := &saveDialog{u: u, ext: ext, folder: u.lastDirPath(), write: write}
	sd.name = widget.NewEntry()
	sd.name.SetText(name)
	sd.name.OnSubmitted = func(string) { sd.submit() }
	sd.where = widget.NewLabel(sd.folder)
	sd.where.Truncation = fyne.TextTruncateEllipsis
	browse := widget.NewButton("Choose folder…", sd.chooseFolder)
	form := widget.NewForm(
		widget.NewFormItem("File name", sd.name),
		widget.NewFormItem("Folder", container.NewBorder(nil, nil, nil, browse, sd.where)),
	)
	save := widget.NewButton("Save", sd.submit)
	save.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", func() { sd.dlg.Hide() })
	sd.dlg = dialog.NewCustomWithoutButtons(title, form, u.win)
	sd.dlg.SetButtons([]fyne.CanvasObject{cancel, save})
	sd.dlg.Resize(fyne.NewSize(560, 0))
	sd.dlg.Show()
	u.win.Canvas().Focus(sd.name)
	u.saving = sd
	return sd
}

func (sd *saveDialog) chooseFolder() {
	d := dialog.NewFolderOpen(func(l fyne.ListableURI, err error) {
		if err != nil {
			sd.u.showError(err)
			return
		}
		if l != nil {
			sd.setFolder(l.Path())
		}
	}, sd.u.win)
	if l := sd.u.lastDir(); l != nil {
		d.SetLocation(l)
	}
	d.Show()
}

func (sd *saveDialog) setFolder(dir string) {
	sd.folder = dir
	sd.where.SetText(dir)
}

// submit checks the name, asks before replacing a file, then writes.
func (sd *saveDialog) submit() {
	path, err := savePath(sd.folder, sd.name.Text, sd.ext)
	if err == nil {
		err = sd.checkTarget(path)
	}
	if err != nil {
		sd.u.showError(err)
		return
	}
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		sd.u.showError(fmt.Errorf("%s is a folder: choose a file name", filepath.Base(path)))
		return
	case err == nil:
		sd.u.confirm("Replace file?", fmt.Sprintf("%s already exists in %s. Replace it?", filepath.Base(path), filepath.Dir(path)),
			func() { sd.finish(path) })
		return
	}
	sd.finish(path)
}

func (sd *saveDialog) finish(path string) {
	sd.dlg.Hide()
	if err := sd.write(path); err != nil {
		sd.u.showError(err)
		return
	}
	sd.u.rememberDir(filepath.Dir(path))
}

// savePath joins folder and a typed file name, adding ext when the name
// has no extension. A name may not be empty or contain a folder.
func savePath(folder, name, ext string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", errors.New("type a file name")
	case strings.ContainsRune(name, filepath.Separator) || name == "." || name == "..":
		return "", fmt.Errorf("%q is not a file name: choose the folder with Choose folder…", name)
	case folder == "":
		return "", errors.New("choose a folder")
	}
	if filepath.Ext(name) == "" {
		name += ext
	}
	return filepath.Join(folder, name), nil
}

// allow sets the extensions the dialog's write takes, with the dot.
func (sd *saveDialog) allow(exts ...string) *saveDialog {
	sd.allowed = exts
	return sd
}

// checkTarget refuses a name whose extension is not one the write takes
// (TOML written into chart.png), and an export over the scenario file
// open in the window.
func (sd *saveDialog) checkTarget(path string) error {
	allowed := sd.allowed
	if len(allowed) == 0 {
		allowed = []string{sd.ext}
	}
	ext := strings.ToLower(filepath.Ext(path))
	if !slices.Contains(allowed, ext) {
		return fmt.Errorf("%s: this is saved as %s; end the name in %s", filepath.Base(path), formatName(allowed[0]), strings.Join(allowed, ", "))
	}
	if open := sd.u.m.Path(); open != "" && !slices.Contains(allowed, ".toml") && sameFile(path, open) {
		return fmt.Errorf("%s is the scenario open in this window: choose another file for the export", filepath.Base(path))
	}
	return nil
}

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) bool {
	ai, err := os.Stat(a)
	if err != nil {
		return false
	}
	bi, err := os.Stat(b)
	return err == nil && os.SameFile(ai, bi)
}

// formatName names the format of an extension for messages.
func formatName(ext string) string {
	switch ext {
	case ".toml":
		return "a TOML scenario"
	case ".csv":
		return "CSV"
	case ".json":
		return "JSON"
	case ".pdf":
		return "a PDF"
	}
	return strings.ToUpper(strings.TrimPrefix(ext, "."))
}
