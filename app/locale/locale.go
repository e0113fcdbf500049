// Package locale gives Fyne a parseable locale. Fyne reads the user's
// locale while its packages initialise and logs an error for "C" or
// "POSIX" (the default in containers and CI). Imported by main, this
// package initialises before Fyne's (Go initialises ready packages in
// import-path order and it depends only on os), and sets LANG to
// en_US.UTF-8 when no real locale is set.
package locale

import "os"

func init() {
	if os.Getenv("LC_ALL") != "" && !isPlain(os.Getenv("LC_ALL")) {
		return
	}
	if isPlain(os.Getenv("LANG")) {
		os.Setenv("LANG", "en_US.UTF-8")
		if isPlain(os.Getenv("LC_ALL")) {
			os.Unsetenv("LC_ALL")
		}
	}
}

func isPlain(v string) bool {
	switch v {
	case "", "C", "POSIX", "C.UTF-8", "C.utf8":
		return true
	}
	return false
}
