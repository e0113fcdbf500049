package planner

import (
	"math"
	"testing"
)

// TestCheckpointNote: a checkpoint that differs in any one input the
// note prints gets its own note, after the base's. Expected notes by
// hand (17.5 s writes "18 s", whole seconds below a minute as every view
// writes a checkpoint write; 0.0125 s "12.5 ms"). Mutations caught:
// the note leaving out the write time, the bandwidth, the model state
// or the path; figures written without their thousands separators
// ("1400 GB"); -0 written as "-0" (a user reads 0 GB).
func TestCheckpointNote(t *testing.T) {
	base := Checkpoint{StateGB: 1400, BandwidthGBs: 80, WriteS: 17.5, Via: "storage network"}
	const baseNote = "checkpoint write 18 s: derived from the storage network bandwidth (80 GB/s for 1,400 GB of model state); set reliability.checkpoint_write_s to override"
	cases := []struct {
		name string
		edit func(*Checkpoint)
		want string
	}{
		{"same", func(*Checkpoint) {}, baseNote},
		{"write time", func(c *Checkpoint) { c.WriteS = 0.0125 },
			"checkpoint write 12.5 ms: derived from the storage network bandwidth (80 GB/s for 1,400 GB of model state); set reliability.checkpoint_write_s to override"},
		{"bandwidth", func(c *Checkpoint) { c.BandwidthGBs = 40 },
			"checkpoint write 18 s: derived from the storage network bandwidth (40 GB/s for 1,400 GB of model state); set reliability.checkpoint_write_s to override"},
		{"state", func(c *Checkpoint) { c.StateGB = 700 },
			"checkpoint write 18 s: derived from the storage network bandwidth (80 GB/s for 700 GB of model state); set reliability.checkpoint_write_s to override"},
		{"path", func(c *Checkpoint) { c.Via = "front end" },
			"checkpoint write 18 s: derived from the front end bandwidth (80 GB/s for 1,400 GB of model state); set reliability.checkpoint_write_s to override"},
		{"negative zero", func(c *Checkpoint) { c.StateGB = math.Copysign(0, -1) },
			"checkpoint write 18 s: derived from the storage network bandwidth (80 GB/s for 0 GB of model state); set reliability.checkpoint_write_s to override"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := base
			if got := checkpointNote(&b); got != baseNote { // keeps base's note
				t.Fatalf("base note = %q, want %q", got, baseNote)
			}
			cp := base
			c.edit(&cp)
			if got := checkpointNote(&cp); got != c.want {
				t.Errorf("note = %q, want %q", got, c.want)
			}
		})
	}
}

// raisedBatchNote writes each batch in full, one after another and
// again: 3,125 replicas of 4,096 tokens are 12,800,000 tokens, 31,250
// are 128,000,000. Mutation caught: a note that does not read the
// tokens (the second note says the first's batch).
func TestRaisedBatchNote(t *testing.T) {
	for _, tc := range []struct {
		tokens int
		want   string
	}{
		{3125 * 4096, "JCT: the default workload's batch is raised to 12,800,000 tokens, one micro-batch per data-parallel rank"},
		{3125 * 4096, "JCT: the default workload's batch is raised to 12,800,000 tokens, one micro-batch per data-parallel rank"},
		{31250 * 4096, "JCT: the default workload's batch is raised to 128,000,000 tokens, one micro-batch per data-parallel rank"},
		{3125 * 4096, "JCT: the default workload's batch is raised to 12,800,000 tokens, one micro-batch per data-parallel rank"},
	} {
		if got := raisedBatchNote(tc.tokens); got != tc.want {
			t.Errorf("%d tokens: %q, want %q", tc.tokens, got, tc.want)
		}
	}
}
