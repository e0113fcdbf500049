package planner

import (
	"fmt"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
)

// StorageInputs is the scenario's [storage] table: the storage system the
// job's checkpoints are written to (docs/scenario.md). A zero field
// takes the system's default (catalog side_defaults).
type StorageInputs struct {
	// WriteGBs is the storage's sustained write bandwidth for the whole
	// cluster, GB/s (gigabytes a second). Zero: the system's default,
	// storage_gbs_per_gpu x storage_write_share per GPU, at most
	// storage_write_max_gbs.
	WriteGBs float64 `toml:"write_gbs,omitempty,omitzero" json:"write_gbs,omitempty"`
}

// [storage] write_gbs bounds: a petabyte a second is 500 times the
// 2 TB/s Llama 3's storage sustained; a tenth of a GB/s is half of what
// one hard disk writes. Beyond them a number is a typo.
const (
	maxStorageWriteGBs = 1e6
	minStorageWriteGBs = 0.1
)

// validate checks the [storage] table, naming each bad field.
func (in *StorageInputs) validate() []error {
	if in == nil || in.WriteGBs == 0 {
		return nil
	}
	if !inRange(in.WriteGBs, minStorageWriteGBs, maxStorageWriteGBs) {
		return []error{fielderr.New("storage.write_gbs",
			fmt.Sprintf("give the storage's sustained write bandwidth in GB/s, %g to %s, or leave it out for the system's default", minStorageWriteGBs, textfmt.Int(maxStorageWriteGBs)),
			"%g GB/s is out of range", in.WriteGBs)}
	}
	return nil
}

// Checkpoint bounds, as Checkpoint.BoundBy names them.
const (
	BoundNetwork = "network" // the servers' or storage servers' ports
	BoundStorage = "storage" // the storage's own write bandwidth
)

// storageWriteGBs is the storage's write bandwidth for a plan of gpus
// GPUs: the scenario's [storage] write_gbs, else the system's default r
// (per GPU x the write share, at most its ceiling; 0 when it gives no
// write share: unbounded).
func (s *Scenario) storageWriteGBs(r SideDefaults, gpus int) float64 {
	if st := s.Storage; st != nil && st.WriteGBs > 0 {
		return st.WriteGBs
	}
	if r.StorageWriteShare <= 0 {
		return 0
	}
	gbs := float64(gpus) * r.StorageGBsPerGPU * r.StorageWriteShare
	if r.StorageWriteMaxGBs > 0 {
		gbs = min(gbs, r.StorageWriteMaxGBs)
	}
	return gbs
}
