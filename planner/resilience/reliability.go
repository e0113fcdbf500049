package resilience

import (
	"fmt"

	"fabricplan/internal/builtdoc"
	"fabricplan/internal/datadoc"
	"fabricplan/internal/fielderr"
)

// Reliability holds the failure rates and recovery times of the failure
// what-if (data/reliability.toml, each with its source), or a scenario's
// overrides of them.
type Reliability struct {
	Rates    FailureRates `toml:"rates" json:"rates"`
	Recovery Recovery     `toml:"recovery" json:"recovery"`
	Spares   Spares       `toml:"spares" json:"spares"`
}

// Spares are the spare parts bought with the fabric, as per cent of each
// bill-of-materials line of their kind (rounded up per line).
type Spares struct {
	SwitchesPct float64 `toml:"switches_pct" json:"switches_pct"`
	// OpticsPct covers transceivers and active optical cables.
	OpticsPct float64 `toml:"optics_pct" json:"optics_pct"`
}

// FailureRates are job-interrupting failures per unit per year.
type FailureRates struct {
	GPU    float64 `toml:"gpu_per_year" json:"gpu_per_year"`
	Host   float64 `toml:"host_per_year" json:"host_per_year"` // per server or tray
	NIC    float64 `toml:"nic_per_year" json:"nic_per_year"`
	Link   float64 `toml:"link_per_year" json:"link_per_year"` // a link with its optics and cable
	Switch float64 `toml:"switch_per_year" json:"switch_per_year"`
}

// Recovery is how long failures cost.
type Recovery struct {
	RestartMin float64 `toml:"restart_min" json:"restart_min"`
	// CheckpointWriteS is how long a checkpoint's write to storage takes;
	// it runs in the background (asynchronous checkpointing), so it does
	// not stall training, but the next save waits for it and a failure
	// loses the save in flight. CheckpointStallS is how long each save
	// stalls training: the copy to host memory, the save plan and the
	// barrier.
	CheckpointWriteS   float64 `toml:"checkpoint_write_s" json:"checkpoint_write_s"`
	CheckpointStallS   float64 `toml:"checkpoint_stall_s" json:"checkpoint_stall_s"`
	CheckpointInterval float64 `toml:"checkpoint_interval_min" json:"checkpoint_interval_min"` // 0: the optimum
	// RepairHours is how long a failed part stays failed without a spare
	// on site; SwapHours how long with one.
	RepairHours float64 `toml:"repair_hours" json:"repair_hours"`
	SwapHours   float64 `toml:"swap_hours" json:"swap_hours"`
	// RecableMin is the minutes one crew takes to move one link when a
	// phased build-out re-cables (an estimate; see PlanPhases).
	RecableMin float64 `toml:"recable_min" json:"recable_min"`
}

// Limits of the reliability figures: beyond them a number is a typo.
const (
	maxRatePerYear = 100.0       // a part failing twice a week
	maxMinutes     = 7 * 24 * 60 // a week
	maxWriteS      = 24 * 3600.0
	maxRepairHours = 24 * 365.0
	maxSparePct    = 100.0 // a second fabric on the shelf
)

// ParseReliability decodes and checks data/reliability.toml: the
// shipped file's bytes come back decoded at build time, any other bytes
// are decoded.
//
//go:generate go test -run ^TestBuiltDocs$ . -args -write-built
func ParseReliability(src []byte) (*Reliability, error) {
	r, err := builtdoc.Decode(builtReliability, src, decodeReliability)
	if err != nil {
		return nil, err
	}
	if errs := r.Check(); len(errs) > 0 {
		return nil, fmt.Errorf("reliability data: %w", errs[0])
	}
	return r, nil
}

// builtReliability is data/reliability.toml decoded when the program
// was built (built_reliability.go, rewritten by go generate); nil
// without that file, when the reliability data is decoded from its TOML.
var builtReliability *builtdoc.Doc[Reliability]

// decodeReliability decodes a reliability data document without
// checking its figures.
func decodeReliability(src []byte) (*Reliability, error) {
	var doc struct {
		Schema int `toml:"schema"`
		Reliability
	}
	if err := datadoc.Decode("reliability data", src, &doc, &doc.Schema); err != nil {
		return nil, err
	}
	return &doc.Reliability, nil
}

// relField is one reliability number with its key, value and range.
type relField struct {
	key      string
	value    float64
	min, max float64
	positive bool // must be above min, not equal
}

// Check checks every number of r against its range, one field error
// (named reliability.KEY) for each out of it.
func (r Reliability) Check() []error {
	return r.fields().check()
}

type relFields []relField

func (r Reliability) fields() relFields {
	return relFields{
		{"gpu_per_year", r.Rates.GPU, 0, maxRatePerYear, false},
		{"host_per_year", r.Rates.Host, 0, maxRatePerYear, false},
		{"nic_per_year", r.Rates.NIC, 0, maxRatePerYear, false},
		{"link_per_year", r.Rates.Link, 0, maxRatePerYear, false},
		{"switch_per_year", r.Rates.Switch, 0, maxRatePerYear, false},
		{"restart_min", r.Recovery.RestartMin, 0, maxMinutes, false},
		{"checkpoint_write_s", r.Recovery.CheckpointWriteS, 0, maxWriteS, true},
		{"checkpoint_stall_s", r.Recovery.CheckpointStallS, 0, maxWriteS, true},
		{"checkpoint_interval_min", r.Recovery.CheckpointInterval, 0, maxMinutes, false},
		{"repair_hours", r.Recovery.RepairHours, 0, maxRepairHours, false},
		{"swap_hours", r.Recovery.SwapHours, 0, maxRepairHours, false},
		{"recable_min", r.Recovery.RecableMin, 0, maxMinutes, false},
		{"spare_switches_pct", r.Spares.SwitchesPct, 0, maxSparePct, false},
		{"spare_optics_pct", r.Spares.OpticsPct, 0, maxSparePct, false},
	}
}

func (fs relFields) check() []error {
	var errs []error
	for _, f := range fs {
		if !inRange(f.value, f.min, f.max) || (f.positive && f.value <= f.min) {
			lo := "from"
			if f.positive {
				lo = "above"
			}
			errs = append(errs, fielderr.New("reliability."+f.key, fmt.Sprintf("give a number %s %g to %g", lo, f.min, f.max), "%g is out of range", f.value))
		}
	}
	return errs
}

// inRange reports whether v is a number from lo to hi; NaN fails.
func inRange(v, lo, hi float64) bool { return v >= lo && v <= hi }
