package planner

import (
	"fmt"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/resilience"
)

// minCheckpointMin is the shortest checkpoint interval a scenario may
// set, in minutes (0 keeps its meaning: the optimum): one second. The
// model's own optimum can be a few minutes (the 100k XDR example: an
// interruption every half hour and a 6.3 s stall a save), so the floor
// only guards against typos (issue #48: 1e-300 printed job times of 297
// digits).
const minCheckpointMin = 1.0 / 60

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
	CheckpointStallS      *float64 `toml:"checkpoint_stall_s,omitempty"`
	CheckpointIntervalMin *float64 `toml:"checkpoint_interval_min,omitempty"`
	RepairHours           *float64 `toml:"repair_hours,omitempty"`
	SwapHours             *float64 `toml:"swap_hours,omitempty"`
	SpareSwitchesPct      *float64 `toml:"spare_switches_pct,omitempty"`
	SpareOpticsPct        *float64 `toml:"spare_optics_pct,omitempty"`
	PortFailover          *bool    `toml:"port_failover,omitempty"`
}

// apply returns base with the scenario's overrides.
func (in *ReliabilityInputs) apply(base resilience.Reliability) resilience.Reliability {
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
	set(&base.Recovery.CheckpointStallS, in.CheckpointStallS)
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
	base := resilience.Reliability{Recovery: resilience.Recovery{CheckpointWriteS: 1, CheckpointStallS: 1}}
	errs := in.apply(base).Check()
	if v := in.CheckpointIntervalMin; v != nil && *v > 0 && *v < minCheckpointMin {
		errs = append(errs, fielderr.New("reliability.checkpoint_interval_min",
			fmt.Sprintf("give 0 for the optimum, or 1 second (%.4g) to %d minutes", minCheckpointMin, maxMinutes),
			"%g minutes is under a second: a typo, not an interval", *v))
	}
	return errs
}

// maxMinutes bounds a scenario's recabling minutes (growth.recable_min)
// as resilience bounds its restart and recabling times: beyond a week a
// number is a typo.
const maxMinutes = 7 * 24 * 60
