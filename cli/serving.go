package cli

import (
	"fmt"
	"io"
	"math"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// writeServing prints the inference or RL table of a plan of that
// workload kind (nothing for training).
func writeServing(tw io.Writer, p *planner.Plan) {
	if r := p.Inference; r != nil {
		fmt.Fprintln(tw, "\t")
		fmt.Fprintf(tw, "INFERENCE (model)\t\t%s prefill GPUs, %s decode GPUs (EP %d, batch %d per GPU)\n",
			textfmt.Int(r.PrefillGPUs), textfmt.Int(r.DecodeGPUs), r.Decode.EP, r.Decode.Batch)
		fmt.Fprintf(tw, "  Output tokens/s per GPU\t%s\tthe whole cluster; %.1f requests/s\n", wholeCount(r.TokensSPerGPU), r.RequestsS)
		fmt.Fprintf(tw, "  Tokens per dollar\t%s\tcapex (compute and back end) over %.0f years plus energy; %s tokens per kWh\n",
			textfmt.Int(int(r.TokensPerDollar)), r.LifeYears, textfmt.Int(int(r.TokensPerKWh)))
		fmt.Fprintf(tw, "  Prefill\t%s tokens/s\tper GPU, computed prompt tokens\n", wholeCount(r.Prefill.TokensSPerGPU))
		fmt.Fprintf(tw, "  Decode\t%s tokens/s\tper GPU; TPOT %s\n", wholeCount(r.Decode.TokensSPerGPU), textfmt.Seconds(r.Decode.TPOTS))
		fmt.Fprintf(tw, "  TTFT\t%s\tKV move %s per request (%.0f MB, %s, %.0f%% of TTFT)\n", textfmt.Seconds(r.TTFTS),
			textfmt.Seconds(r.KV.SPerRequest), r.KV.BytesPerRequest/1e6, r.KV.Via, 100*r.KV.ShareOfTTFT)
		for _, e := range r.Effects {
			if e.S > 0 {
				fmt.Fprintf(tw, "    %s: %s\t%s\t\n", e.Part, e.What, textfmt.Seconds(e.S))
			}
		}
		for _, b := range r.Baselines {
			if !b.Fits {
				fmt.Fprintf(tw, "  Baseline\tcannot serve\twith %s: %s\n", b.Label, b.Note)
				continue
			}
			fmt.Fprintf(tw, "  Baseline\t%s tokens/s\tper GPU with %s: the back end buys %s\n", wholeCount(b.TokensSPerGPU), b.Label, textfmt.Gain(b.Gain))
		}
		for _, f := range r.Findings {
			fmt.Fprintf(tw, "  Finding\t\t%s\n", f)
		}
	}
	if r := p.RL; r != nil {
		fmt.Fprintln(tw, "\t")
		fmt.Fprintf(tw, "RL WEIGHT SYNC (model)\t%s\t%s GB %s: network %s, reload %s, overhead %s; %.1f%% of the time between syncs\n",
			textfmt.Seconds(r.WeightSyncS), wholeCount(r.SyncGB), r.Mode, textfmt.Seconds(r.NetworkS), textfmt.Seconds(r.ReloadS),
			textfmt.Seconds(r.OverheadS), 100*r.ShareOfStep)
		for _, f := range r.Findings {
			fmt.Fprintf(tw, "  Finding\t\t%s\n", f)
		}
	}
}

// wholeCount is a rate rounded to a whole number, digits grouped
// ("1,250").
func wholeCount(v float64) string { return textfmt.Int(int(math.Round(v))) }
