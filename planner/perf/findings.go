package perf

import (
	"math"
	"strconv"

	"fabricplan/internal/textfmt"
)

// findings lists what a planner should know about the estimate: the
// memory verdict, a GPU whose compute efficiency no published run
// checks (where the workload does not give its own), and a pipeline
// with fewer micro-batches than stages (fixed: the step with pp
// micro-batches per pipeline, nil when not short; passed, not kept in
// the JCT, whose allocation it would push past its size class).
func (j *JCT) findings(fixed *batchStep) []string {
	var out []string
	if f := j.MemoryFinding(); f != "" {
		out = append(out, f)
	}
	if u := j.GPU.EfficiencyUnvalidated; u != "" && j.Workload.ComputeEfficiency == 0 {
		out = append(out, u)
	}
	if f := j.shortPipelineFinding(fixed); f != "" {
		out = append(out, f)
	}
	return out
}

// ShortPipeline says whether each pipeline runs fewer micro-batches a
// step than it has stages: 1F1B never fills, and the bubble,
// (pp-1)/(vpp·m) of the compute, is most of the step. Megatron-LM's
// interleaved schedule refuses it outright (its schedules need the
// micro-batches to be a multiple of pp).
func (j *JCT) ShortPipeline() bool {
	return j.Workload.PP > 1 && j.Microbatches < j.Workload.PP
}

// BubbleShare is the pipeline bubble's fraction of the planned step.
func (j *JCT) BubbleShare() float64 {
	if j.Planned.StepS <= 0 {
		return 0
	}
	return j.Planned.BubbleS / j.Planned.StepS
}

// shortPipelineFinding calls out a pipeline short of micro-batches with
// both ways out: the global batch that gives every pipeline pp micro-
// batches, timed (tokens per second, since the step grows with the
// batch, fixed), or the most data-parallel ranks the batch keeps busy.
func (j *JCT) shortPipelineFinding(fixed *batchStep) string {
	if !j.ShortPipeline() {
		return ""
	}
	w := j.Workload
	seqs := float64(w.GlobalBatchTokens) / float64(w.SeqLen)
	maxDP := max(int(math.Floor(seqs/float64(w.PP*w.MicroBatch))), 1)
	// One buffer and strconv, not fmt.Sprintf: every detailed estimate of a
	// short pipeline writes this (a re-plan's failure what-if among them).
	b := make([]byte, 0, 512)
	b = append(b, "pipeline short of micro-batches: "...)
	b = textfmt.AppendInt(b, j.Microbatches)
	b = append(b, " micro-batch"...)
	if j.Microbatches != 1 {
		b = append(b, "es"...)
	}
	b = append(b, " per pipeline for pp "...)
	b = strconv.AppendInt(b, int64(w.PP), 10)
	b = append(b, ", so the bubble is "...)
	b = strconv.AppendFloat(b, 100*j.BubbleShare(), 'f', 0, 64)
	b = append(b, "% of the step ((pp-1)/(vpp x m) of the compute)"...)
	if fb := fixed; fb != nil {
		b = append(b, "; give each of the "...)
		b = textfmt.AppendInt(b, j.DP)
		b = append(b, " data-parallel ranks "...)
		b = strconv.AppendInt(b, int64(w.PP), 10)
		b = append(b, ": global_batch_tokens = "...)
		b = textfmt.AppendInt(b, fb.batchTokens)
		b = append(b, " ("...)
		b = textfmt.AppendInt(b, int(fb.TokensPerS))
		b = append(b, " tokens/s against "...)
		b = textfmt.AppendInt(b, int(j.Planned.TokensPerS))
		b = append(b, " now)"...)
	}
	b = append(b, "; or keep the batch and use at most "...)
	b = textfmt.AppendInt(b, maxDP)
	b = append(b, " data-parallel ranks ("...)
	b = textfmt.AppendInt(b, maxDP*w.modelParallel())
	b = append(b, " GPUs) for this job. Llama 3 405B ran 16 micro-batches per pipeline on 16,384 GPUs (16M tokens, dp 128; The Llama 3 Herd of Models, 2024)"...)
	return string(b)
}

// batchStep is the step with a larger global batch.
type batchStep struct {
	StepTime
	batchTokens int
}

// timeFullPipeline times the job with the global batch that gives every
// pipeline pp micro-batches, when it is short of them and that batch is
// within the inputs' range (nil otherwise).
func timeFullPipeline(w *Workload, gpu *GPUSpec, d *JCTData, fv *fabricView, dp, micro int) *batchStep {
	if w.PP <= 1 || micro >= w.PP {
		return nil
	}
	need := float64(w.PP) * float64(w.MicroBatch) * float64(dp) * float64(w.SeqLen)
	if need > maxBatchTokens {
		return nil
	}
	v := *w
	v.GlobalBatchTokens = int(need)
	return &batchStep{StepTime: stepOnce(&v, gpu, d, fv, dp, microbatches(&v, dp), RDMA, nil), batchTokens: v.GlobalBatchTokens}
}
