package app

import (
	"strconv"
	"strings"

	"fyne.io/fyne/v2/widget"

	"fabricplan/planner"
)

// buildWorkload makes the workload widgets. Until one is touched the
// scenario has no [workload] table and the planner uses its default job.
func (in *inputsPanel) buildWorkload() {
	u := in.u
	w := func() *planner.Workload {
		if u.scenario.Workload == nil {
			d := planner.NewWorkload()
			u.scenario.Workload = &d
		}
		return u.scenario.Workload
	}
	models := append([]string{workloadNone}, planner.SortedKeys(u.cat.JCT.Models)...)
	in.model = widget.NewSelect(models, func(v string) {
		if u.loading {
			return
		}
		if v == workloadNone {
			u.scenario.Workload = nil
			u.changed()
			return
		}
		wl := w()
		wl.Model = v
		// A preset replaces any shape typed for the previous model.
		wl.ParamsB, wl.ActiveParamsB, wl.Layers, wl.Hidden, wl.SeqLen, wl.Vocab, wl.Experts, wl.TopK = 0, 0, 0, 0, 0, 0, 0, 0
		u.changed()
	})
	in.gpu = widget.NewSelect(planner.SortedKeys(u.cat.JCT.GPUs), func(v string) {
		if u.loading {
			return
		}
		w().GPU = v
		u.changed()
	})
	intEntry := func(key string, dst func() *int, limit int) *widget.Entry {
		e := widget.NewEntry()
		e.OnChanged = func(text string) {
			if u.loading {
				return
			}
			n, err := parseCount(text, limit)
			if err != nil {
				in.setError(key, err.Error())
				return
			}
			*dst() = n
			u.changed()
		}
		return e
	}
	in.tp = intEntry("workload.tp", func() *int { return &w().TP }, 1<<16)
	in.pp = intEntry("workload.pp", func() *int { return &w().PP }, 1<<12)
	in.vpp = intEntry("workload.vpp", func() *int { return &w().VPP }, 64)
	in.ep = intEntry("workload.ep", func() *int { return &w().EP }, 1<<12)
	in.microBat = intEntry("workload.micro_batch", func() *int { return &w().MicroBatch }, 1<<12)
	in.batch = intEntry("workload.global_batch_tokens", func() *int { return &w().GlobalBatchTokens }, 1<<40)
	in.tokens = widget.NewEntry()
	in.tokens.SetPlaceHolder("e.g. 1e12")
	in.tokens.OnChanged = func(text string) {
		if u.loading {
			return
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(text), ",", ""), 64)
		if err != nil || v <= 0 {
			in.setError("workload.tokens_total", "write the token budget, e.g. 1e12")
			return
		}
		w().TokensTotal = v
		u.changed()
	}
	in.zero = widget.NewCheck("Sharded optimizer (ZeRO / distributed optimizer)", func(b bool) {
		if u.loading {
			return
		}
		w().ZeRO = b
		u.changed()
	})
	in.recompute = widget.NewCheck("Activation recomputation", func(b bool) {
		if u.loading {
			return
		}
		w().Recompute = b
		u.changed()
	})
}

func (in *inputsPanel) workloadFields() []*field {
	return []*field{
		in.add("workload.model", "Model", in.model),
		in.add("workload.gpu", "GPU", in.gpu),
		in.add("workload.tp", "Tensor parallel (tp)", in.tp),
		in.add("workload.pp", "Pipeline parallel (pp)", in.pp),
		in.add("workload.vpp", "Virtual pipeline stages", in.vpp),
		in.add("workload.ep", "Expert parallel (ep)", in.ep),
		in.add("workload.micro_batch", "Micro-batch (sequences)", in.microBat),
		in.add("workload.global_batch_tokens", "Global batch (tokens)", in.batch),
		in.add("workload.tokens_total", "Token budget", in.tokens),
		in.add("workload.zero", "", in.zero),
		in.add("workload.recompute", "", in.recompute),
	}
}

// fillWorkload shows w (nil: the default job) in the workload widgets.
func (in *inputsPanel) fillWorkload(w *planner.Workload) {
	d := planner.NewWorkload()
	if w == nil {
		in.model.SetSelected(workloadNone)
	} else {
		d = *w
		in.model.SetSelected(d.Model)
	}
	in.gpu.SetSelected(d.GPU)
	in.tp.SetText(strconv.Itoa(d.TP))
	in.pp.SetText(strconv.Itoa(d.PP))
	in.vpp.SetText(strconv.Itoa(d.VPP))
	in.ep.SetText(strconv.Itoa(d.EP))
	in.microBat.SetText(strconv.Itoa(d.MicroBatch))
	in.batch.SetText(strconv.Itoa(d.GlobalBatchTokens))
	in.tokens.SetText(strconv.FormatFloat(d.TokensTotal, 'g', -1, 64))
	in.zero.SetChecked(d.ZeRO)
	in.recompute.SetChecked(d.Recompute)
}
