//go:build nocharts

package cli

// The nocharts build links no chart package (gonum/plot, its fonts, the
// PDF writer), whose initialisation every start of the process would
// otherwise pay for: for scripts that run the commands that draw
// nothing many times. export and report say how to get them.

// runExport, in a build without charts, says how to get one.
func runExport(_ *cliEnv, _ []string) error { return errNoCharts }

// runReport, in a build without charts, says how to get one.
func runReport(_ *cliEnv, _ []string) error { return errNoCharts }

// errNoCharts is export's and report's error in a build without charts.
var errNoCharts = usagef("this build draws no charts (built with -tags nocharts): build without nocharts for export and report")
