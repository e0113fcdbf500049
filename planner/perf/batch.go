package perf

import (
	"fmt"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
)

// checkBatch requires at least one micro-batch per data-parallel rank:
// a global batch smaller than seq_len x micro_batch x dp tokens leaves
// ranks idle, and the model would time work that does not exist.
func checkBatch(w *Workload, dp int) error {
	need := float64(w.SeqLen) * float64(w.MicroBatch) * float64(dp)
	if float64(w.GlobalBatchTokens) >= need {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrNoJCT, fielderr.New("workload.global_batch_tokens",
		fmt.Sprintf("give at least %s tokens (seq_len %s x micro_batch %d x %s), or a smaller micro_batch",
			textfmt.Int(int(need)), textfmt.Int(w.SeqLen), w.MicroBatch, textfmt.Plural(dp, "data-parallel rank")),
		"%s tokens is less than one micro-batch per data-parallel rank", textfmt.Int(w.GlobalBatchTokens)))
}
