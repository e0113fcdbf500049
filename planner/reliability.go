package planner

import (
	"fmt"

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
	RestartMin         float64 `toml:"restart_min" json:"restart_min"`
	CheckpointWriteS   float64 `toml:"checkpoint_write_s" json:"checkpoint_write_s"`
	CheckpointInterval float64 `toml:"checkpoint_interval_min" json:"checkpoint_interval_min"` // 0: the optimum
	// RepairHours is how long a failed part stays failed without a spare
	// on site; SwapHours how long with one.
	RepairHours float64 `toml:"repair_hours" json:"repair_hours"`
	SwapHours   float64 `toml:"swap_hours" json:"swap_hours"`
	// RecableMin is the minutes one crew takes to move one link when a
	// phased build-out re-cables (an estimate; see planner/phases).
	RecableMin float64 `toml:"recable_min" json:"recable_min"`
}

// ReliabilityInputs is a scenario's [reliability] table: any rate or time
// set replaces the data file's; PortFailover says whether a GPU whose NIC
// port, link or leaf fails keeps training on its other ports (NCCL port
// failover, multi-plane designs); unset, it is on for designs with more
// than one plane. The spare percentages add spare switches and optics
// to the bill of materials.
type ReliabilityInputs struct {
	GPUPerYear            *float64 `toml:"gpu_per_year,omitempty"`
	HostPerYear           *float64 `toml:"host_per_year,omitempty"`
	NICPerYear            *float64 `toml:"nic_per_year,omitempty"`
	LinkPerYear           *float64 `toml:"link_per_year,omitempty"`
	SwitchPerYear         *float64 `toml:"switch_per_year,omitempty"`
	RestartMin            *float64 `toml:"restart_min,omitempty"`
	CheckpointWriteS      *float64 `toml:"checkpoint_write_s,omitempty"`
	CheckpointIntervalMin *float64 `toml:"checkpoint_interval_min,omitempty"`
	RepairHours           *float64 `toml:"repair_hours,omitempty"`
	SwapHours             *float64 `toml:"swap_hours,omitempty"`
	SpareSwitchesPct      *float64 `toml:"spare_switches_pct,omitempty"`
	SpareOpticsPct        *float64 `toml:"spare_optics_pct,omitempty"`
	PortFailover          *bool    `toml:"port_failover,omitempty"`
}

// Limits of the reliability inputs: beyond them a number is a typo.
const (
	maxRatePerYear = 100.0       // a part failing twice a week
	maxMinutes     = 7 * 24 * 60 // a week
	maxWriteS      = 24 * 3600.0
	maxRepairHours = 24 * 365.0
	maxSparePct    = 100.0 // a second fabric on the shelf
)

// ParseReliability decodes and checks data/reliability.toml.
func ParseReliability(src []byte) (*Reliability, error) {
	var doc struct {
		Schema int `toml:"schema"`
		Reliability
	}
	if err := datadoc.Decode("reliability data", src, &doc, &doc.Schema); err != nil {
		return nil, err
	}
	r := doc.Reliability
	if errs := r.fields().check(); len(errs) > 0 {
		return nil, fmt.Errorf("reliability data: %w", errs[0])
	}
	return &r, nil
}

// relField is one reliability number with its key, value and range.
type relField struct {
	key      string
	value    float64
	min, max float64
	positive bool // must be above min, not equal
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

// apply returns base with the scenario's overrides.
func (in *ReliabilityInputs) apply(base Reliability) Reliability {
	if in == nil {
		return base
	}
	set := func(dst *float64, v *float64) {
		if v != nil {
			*dst = *v
		}
	}
	set(&base.Rates.GPU, in.GPUPerYear)
	set(&base.Rates.Host, in.HostPerYear)
	set(&base.Rates.NIC, in.NICPerYear)
	set(&base.Rates.Link, in.LinkPerYear)
	set(&base.Rates.Switch, in.SwitchPerYear)
	set(&base.Recovery.RestartMin, in.RestartMin)
	set(&base.Recovery.CheckpointWriteS, in.CheckpointWriteS)
	set(&base.Recovery.CheckpointInterval, in.CheckpointIntervalMin)
	set(&base.Recovery.RepairHours, in.RepairHours)
	set(&base.Recovery.SwapHours, in.SwapHours)
	set(&base.Spares.SwitchesPct, in.SpareSwitchesPct)
	set(&base.Spares.OpticsPct, in.SpareOpticsPct)
	return base
}

// validate checks the overrides a scenario sets, naming each bad field.
func (in *ReliabilityInputs) validate() []error {
	if in == nil {
		return nil
	}
	// Check only what is set: apply onto a valid base, then check.
	base := Reliability{Recovery: Recovery{CheckpointWriteS: 1}}
	return in.apply(base).fields().check()
}
