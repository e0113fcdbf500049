package serve

import (
	"fmt"
	"math"

	"fabricplan/planner/perf"
)

// Result is a serving estimate, in the JSON shape `plan --json` prints
// under "inference".
type Result struct {
	Prefill struct {
		TokensSPerGPU float64 `json:"tokens_s_per_gpu"`
	} `json:"prefill"`
	Decode struct {
		TokensSPerGPU float64 `json:"tokens_s_per_gpu"`
		TPOTS         float64 `json:"tpot_s"`
		Batch         int     `json:"batch_per_gpu"`
		EP            int     `json:"ep"`
	} `json:"decode"`
	TTFTS float64    `json:"ttft_s"`
	KV    KVTransfer `json:"kv_transfer"`
	// TokensSPerGPU is output tokens per second per GPU of the whole
	// serving cluster (both pools).
	TokensSPerGPU   float64 `json:"tokens_s_per_gpu"`
	TokensPerDollar float64 `json:"tokens_per_dollar"`
	TokensPerKWh    float64 `json:"tokens_per_kwh"`
	// RequestsS is the requests per second the cluster serves.
	RequestsS   float64 `json:"requests_s"`
	PrefillGPUs int     `json:"prefill_gpus"`
	DecodeGPUs  int     `json:"decode_gpus"`
	LifeYears   float64 `json:"life_years"`
	// Effects break the decode step and the TTFT down; Baselines say what
	// the back end buys.
	Effects   []Effect   `json:"effects"`
	Baselines []Baseline `json:"baselines"`
	Findings  []string   `json:"findings"`
}

// KVTransfer is one request's KV move from the prefill to the decode
// pool.
type KVTransfer struct {
	BytesPerRequest float64 `json:"bytes_per_request"`
	SPerRequest     float64 `json:"s_per_request"`
	GBs             float64 `json:"gbs"`
	ShareOfTTFT     float64 `json:"share_of_ttft"`
	Via             string  `json:"via"`
}

// Effect is one part of a step or of the TTFT, seconds.
type Effect struct {
	Part string  `json:"part"`
	What string  `json:"what"`
	S    float64 `json:"s"`
}

// Baseline is the same serving layout without part of the back end.
type Baseline struct {
	Key           string  `json:"key"`
	Label         string  `json:"label"`
	TokensSPerGPU float64 `json:"tokens_s_per_gpu"`
	TTFTS         float64 `json:"ttft_s"`
	TPOTS         float64 `json:"tpot_s"`
	KVSPerRequest float64 `json:"kv_s_per_request"`
	// Gain is the planned tokens/s per GPU over the baseline's.
	Gain float64 `json:"gain"`
	// Fits is false when the baseline's decode does not fit in HBM even
	// at one request per GPU: it serves nothing, so its tokens/s and gain
	// are 0 and Note says by how much it is over.
	Fits bool `json:"fits"`
	// Note says why a baseline does not fit.
	Note string `json:"note,omitempty"`
}

// Baseline keys.
const (
	BaselineTCP      = "tcp"
	BaselineFrontEnd = "front_end"
	BaselineEPNVLink = "ep_in_nvlink"
)

// setting is one way of serving: the transports and widths a baseline
// changes.
type setting struct {
	kvVia    Transport
	decodeEP int
}

// estimator holds what every setting of one estimate shares.
type estimator struct {
	in  Inference
	m   Model
	c   *Cluster
	jd  *perf.JCTData
	d   *Data
	kvB float64 // KV bytes per token
}

// Estimate times serving in on cluster c for model m: per-GPU prefill
// and decode rates, TTFT and TPOT, each request's KV move, tokens per
// second per GPU and per dollar of the whole cluster, with the
// baselines (TCP over the same links, the front end alone, decode EP
// kept inside the NVLink domain).
func Estimate(in Inference, m Model, c *Cluster, jd *perf.JCTData, d *Data) *Result {
	e := estimator{in: in.withDefaults(m, c), m: m, c: c, jd: jd, d: d}
	e.kvB = KVBytesPerToken(m, e.in.KVLatent, e.in.HeadDim, e.in.KVPrecision)
	plan := setting{kvVia: e.plannedKV(), decodeEP: e.in.DecodeEP}
	r := e.run(plan)
	e.baselines(r, plan)
	e.findings(r, plan)
	return r
}

// withDefaults fills the widths and layout in leaves at 0.
func (in Inference) withDefaults(m Model, c *Cluster) Inference {
	if in.Layout == "" {
		in.Layout = LayoutDisaggregated
	}
	if in.Placement == "" {
		in.Placement = PlaceSeparate
	}
	if in.PrefillTP <= 0 {
		in.PrefillTP = min(defaultTP, c.Net.GPUs)
	}
	if in.DecodeEP <= 0 {
		in.DecodeEP = 1
	}
	if in.DecodeTP <= 0 {
		in.DecodeTP = defaultTP
		if in.DecodeEP > 1 {
			in.DecodeTP = 1 // data-parallel attention beside EP
		}
	}
	return in
}

// plannedKV is how the planned layout moves KV: not at all when
// colocated, over NVLink when both pools share a domain, else RDMA.
func (e *estimator) plannedKV() Transport {
	if e.in.Placement == PlaceSameDomain && e.in.PrefillTP+e.in.DecodeTP*max(e.in.DecodeEP, 1) <= e.c.NVLinkDomain {
		return NVLink
	}
	return RDMA
}

// run is one setting's estimate without baselines or findings.
func (e *estimator) run(s setting) *Result {
	r := &Result{LifeYears: e.d.Economics.LifeYears}
	in := e.in
	computed := float64(in.InputTokens) * (1 - in.PrefixHitRate)
	pfTPS, pfS := e.prefill(computed)
	r.Prefill.TokensSPerGPU = pfTPS
	b, st := e.decode(s.decodeEP)
	r.Decode.Batch, r.Decode.EP, r.Decode.TPOTS = b, s.decodeEP, st.total()
	r.Decode.TokensSPerGPU = float64(b) / st.total()
	r.KV = e.kvMove(s.kvVia)
	if in.Layout == LayoutColocated {
		r.KV = KVTransfer{Via: "none (colocated)"}
	}
	r.TTFTS = pfS + r.KV.SPerRequest + st.total()
	if r.TTFTS > 0 {
		r.KV.ShareOfTTFT = r.KV.SPerRequest / r.TTFTS
	}
	e.throughput(r, computed)
	r.Effects = append(st.effects(), Effect{Part: "ttft", What: "prefill compute", S: pfS},
		Effect{Part: "ttft", What: "KV transfer (" + r.KV.Via + ")", S: r.KV.SPerRequest},
		Effect{Part: "ttft", What: "first decode step", S: st.total()})
	return r
}

// prefill is the prefill rate per GPU (computed tokens/s) and one
// request's prefill time on its instance: 2 x active parameters FLOPs a
// token plus causal attention, 2 x layers x hidden x prompt length a
// token [derived: half of full attention's 4 x layers x hidden x L^2],
// at the GPU's GEMM ceiling (data/jct.toml efficiency_max) scaled by the
// tokens of the pass and, for MoE, [prefill] moe_efficiency.
func (e *estimator) prefill(computed float64) (tps, s float64) {
	if computed <= 0 {
		return 0, 0
	}
	m, g := e.m, e.c.GPU
	flops := 2*m.ActiveParamsB*gigaF + 2*float64(m.Layers)*float64(m.Hidden)*float64(e.in.InputTokens)
	eff := g.EfficiencyMax * computed / (computed + e.d.Prefill.TokensHalf)
	if m.moe() {
		eff *= e.d.Prefill.MoEEfficiency
	}
	tps = peakTFLOPS(g, e.in.WeightPrecision) * teraF * eff / flops
	return tps, computed / (tps * float64(e.in.PrefillTP))
}

// step is one decode step of a GPU, by part, seconds.
type step struct {
	weights, kv, gemmExtra, epNet, epNVL, tp, overhead float64
}

// total is the step time.
func (s step) total() float64 {
	return s.weights + s.kv + s.gemmExtra + s.epNet + s.epNVL + s.tp + s.overhead
}

// effects lists the step's parts.
func (s step) effects() []Effect {
	return []Effect{
		{"decode", "weights read from HBM", s.weights}, {"decode", "KV cache read from HBM", s.kv},
		{"decode", "GEMMs beyond the memory time", s.gemmExtra},
		{"decode", whatEPNet, s.epNet},
		{"decode", "EP all-to-all inside the NVLink domain (exposed)", s.epNVL},
		{"decode", "TP all-reduces", s.tp}, {"decode", "step overhead", s.overhead},
	}
}

// decode picks the batch per GPU (the scenario's, else the largest that
// meets the TPOT target and fits in memory) and times its step.
func (e *estimator) decode(ep int) (int, step) {
	if b := e.in.DecodeBatch; b > 0 {
		return b, e.decodeStep(b, ep)
	}
	fits := func(b int) bool {
		if e.memoryGB(b, ep) > e.c.GPU.HBMGB-e.jd.Memory.ReserveGB {
			return false
		}
		return e.in.TargetTPOTS <= 0 || e.decodeStep(b, ep).total() <= e.in.TargetTPOTS
	}
	lo, hi := 1, MaxBatch
	if !fits(lo) {
		return lo, e.decodeStep(lo, ep)
	}
	for lo < hi { // the largest b that fits: fits is monotone in b
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, e.decodeStep(lo, ep)
}

// weightsPerGPU is the bytes of weights a decode GPU holds, and the
// bytes it reads per step at batch b: a dense model's share of TP; for
// MoE the shared part over TP and its EP share of the experts, of which
// a step touches those its tokens route to.
func (e *estimator) weightsPerGPU(b, ep int) (held, read float64) {
	m, tp := e.m, float64(e.in.DecodeTP)
	wb := bytesPer(e.in.WeightPrecision)
	experts := e.m.expertParams()
	shared := (m.ParamsB*gigaF - experts) * wb / tp
	perGPU := experts * wb / float64(ep) / tp
	if ep > 1 {
		perGPU = experts * wb / float64(ep)
	}
	touched := 1.0
	if m.moe() {
		tokens := float64(b) * float64(ep) * tp
		touched = 1 - math.Pow(1-float64(m.TopK)/float64(m.Experts), tokens)
	}
	return shared + perGPU, shared + perGPU*touched
}

// kvPerGPU is the KV bytes a decode GPU holds at batch b for ctx tokens
// a request: K and V heads split over TP (replicated past the KV heads),
// an MLA latent whole on each GPU.
func (e *estimator) kvPerGPU(b int, ctx float64) float64 {
	split := 1.0
	if e.in.KVLatent <= 0 && e.in.DecodeTP > 1 {
		split = float64(e.in.DecodeTP) / float64(min(e.in.DecodeTP, max(e.m.KVHeads, 1)))
	}
	return float64(b) * ctx * e.kvB * split
}

// memoryGB is a decode GPU's weights and KV at batch b, whole answers.
func (e *estimator) memoryGB(b, ep int) float64 {
	held, _ := e.weightsPerGPU(b, ep)
	return (held + e.kvPerGPU(b, float64(e.in.InputTokens+e.in.OutputTokens))) / gigaF
}

// decodeStep times one decode step at batch b per GPU with expert
// parallelism ep: the larger of the HBM reads and the GEMMs, the EP
// all-to-all (less what two-batch overlap hides), TP all-reduces and a
// fixed overhead.
func (e *estimator) decodeStep(b, ep int) step {
	g, d := e.c.GPU, e.d.Decode
	_, wRead := e.weightsPerGPU(b, ep)
	ctx := float64(e.in.InputTokens) + float64(e.in.OutputTokens)/2
	bw := g.HBMTBs * teraF * d.HBMEfficiency
	s := step{weights: wRead / bw, kv: e.kvPerGPU(b, ctx) / bw, overhead: d.StepOverheadUS * microsecond}
	gemm := float64(b) * 2 * e.m.ActiveParamsB * gigaF / (peakTFLOPS(g, e.in.WeightPrecision) * teraF * d.ComputeEfficiency)
	s.gemmExtra = math.Max(0, gemm-s.weights-s.kv)
	if e.m.moe() && ep > 1 {
		net, nvl := e.allToAll(b, ep)
		hide := 1 - d.EPOverlap
		layers := 2 * float64(e.m.Layers) * hide // a dispatch and a combine per MoE layer
		s.epNet, s.epNVL = net*layers, nvl*layers
	}
	if tp := e.in.DecodeTP; tp > 1 {
		per := d.TPAllReduceUS * microsecond
		if tp > e.c.NVLinkDomain {
			per = (e.jd.Collective.BaseLatencyUS + e.jd.Collective.NetHopUS) * microsecond
		}
		s.tp = 2 * float64(e.m.Layers) * per
	}
	return s
}

// allToAll is one EP all-to-all (the mean of a dispatch and a combine)
// at batch b: each GPU sends b x top_k token copies of hidden elements,
// spread evenly over the ep GPUs; those in its NVLink domain go over
// NVLink, the rest over the back end at the GPU's NIC share, slowed by
// the leaf's ratio where the group leaves its leaf group, plus NCCL's
// per-peer cost for each remote peer (data/jct.toml alltoall_peer_us).
func (e *estimator) allToAll(b, ep int) (net, nvl float64) {
	d, jd, g := e.d.Decode, e.jd, e.c.GPU
	bytes := float64(b*e.m.TopK) * float64(e.m.Hidden) * (d.DispatchBytes + d.CombineBytes) / 2
	local := min(ep, e.c.NVLinkDomain)
	localShare := float64(local) / float64(ep)
	nvl = jd.Collective.BaseLatencyUS*microsecond + bytes*localShare/(g.NVLinkGBs*gigaF*jd.Efficiency.NVLink)
	if remote := ep - local; remote > 0 {
		peers := math.Min(float64(remote), float64(b*e.m.TopK))
		net = (jd.Collective.NetHopUS+peers*jd.Collective.AllToAllPeerUS)*microsecond +
			bytes*(1-localShare)*e.c.crossDerate(ep)/(e.c.gbsPerGPU(jd)*gigaF)
	}
	return net, nvl
}

// kvMove times one request's KV move over via: alpha plus bytes over
// the prefill instance's NICs (or NVLink), capped per node as the
// transfer engines measure.
func (e *estimator) kvMove(via Transport) KVTransfer {
	bytes := float64(e.in.InputTokens) * e.kvB
	gbs, alpha, name := e.kvGBs(via)
	return KVTransfer{BytesPerRequest: bytes, GBs: gbs, SPerRequest: alpha + bytes/(gbs*gigaF), Via: name}
}

// KVTime is the time to move bytes over a node's nics NICs of nicGbps
// each by transport via, with the fabric efficiency of fabric and the
// constants of d and jd: alpha plus bytes over the bandwidth.
func KVTime(bytes float64, nics int, nicGbps float64, fabric perf.Fabric, via Transport, jd *perf.JCTData, d *Data) float64 {
	c := Cluster{Net: perf.Network{NICsPerServer: nics, NICGbps: nicGbps, GPUsPerServer: nics, Fabric: fabric}}
	e := estimator{in: Inference{PrefillTP: nics}, c: &c, jd: jd, d: d}
	gbs, alpha, _ := e.kvGBs(via)
	return alpha + bytes/(gbs*gigaF)
}

// kvGBs is the bandwidth, fixed latency and name of a KV move over via
// from one prefill instance.
func (e *estimator) kvGBs(via Transport) (gbs, alphaS float64, name string) {
	n, jd, k := e.c.Net, e.jd, e.d.KV
	nodes := float64(ceilDiv(e.in.PrefillTP, max(n.GPUsPerServer, 1)))
	nics := math.Max(1, float64(n.NICsPerServer)*float64(min(e.in.PrefillTP, n.GPUsPerServer))/float64(max(n.GPUsPerServer, 1))) * nodes
	line := nics * n.NICGbps / bitsPerByte
	alphaS = k.AlphaUS * microsecond
	tcpAlpha := alphaS + jd.TCP.ExtraLatencyUS*microsecond
	switch via {
	case NVLink:
		return float64(e.in.PrefillTP) * e.c.GPU.NVLinkGBs * jd.Efficiency.NVLink, alphaS, "NVLink"
	case TCP:
		return math.Min(line*jd.TCP.LineRateFraction, k.TCPCapGBsPerNode*nodes), tcpAlpha, "TCP over the back end's links"
	case FrontEnd:
		fe := e.c.FrontEndGbpsPerServer / bitsPerByte * nodes
		return math.Min(fe*jd.TCP.LineRateFraction, k.TCPCapGBsPerNode*nodes), tcpAlpha, "TCP over the front end"
	}
	return math.Min(line*fabricEff(n.Fabric, jd), k.RDMACapGBsPerNode*nodes), alphaS, "RDMA over the back end"
}

// throughput fills the cluster's rates: the pools (given, or the
// cluster split in the ratio of their GPU-seconds per request), the
// output tokens per second per GPU, per dollar over the life and per
// kWh.
func (e *estimator) throughput(r *Result, computed float64) {
	in, gpus := e.in, e.c.Net.GPUs
	out := float64(in.OutputTokens)
	pfWork, dcWork := 0.0, out/r.Decode.TokensSPerGPU // GPU-seconds per request
	if r.Prefill.TokensSPerGPU > 0 {
		pfWork = computed / r.Prefill.TokensSPerGPU
	}
	var tokS float64
	if in.Layout == LayoutColocated {
		tokS = float64(gpus) * out / (pfWork + dcWork)
		r.PrefillGPUs, r.DecodeGPUs = gpus, gpus
	} else {
		p, dc := in.PrefillGPUs, in.DecodeGPUs
		if p+dc > gpus { // a sweep or a phase at fewer GPUs: the pools in proportion
			scale := float64(gpus) / float64(p+dc)
			p, dc = int(float64(p)*scale), int(float64(dc)*scale)
			r.Findings = append(r.Findings, fmt.Sprintf("the pools given exceed the cluster's %d GPUs: planned as %d prefill and %d decode GPUs", gpus, p, dc))
		}
		if p == 0 && dc == 0 {
			p = max(1, int(math.Round(float64(gpus)*pfWork/(pfWork+dcWork))))
			dc = max(1, gpus-p)
		}
		r.PrefillGPUs, r.DecodeGPUs = p, dc
		tokS = math.Min(float64(dc)/dcWork*out, math.Inf(1))
		if pfWork > 0 {
			tokS = math.Min(tokS, float64(p)/pfWork*out)
		}
		gpus = p + dc
	}
	r.TokensSPerGPU = tokS / float64(max(gpus, 1))
	r.RequestsS = tokS / out
	e.economics(r, tokS)
}

// economics fills tokens per dollar (capex amortised over the life plus
// energy) and per kWh, for tokS output tokens per second of the cluster.
func (e *estimator) economics(r *Result, tokS float64) {
	ec := e.d.Economics
	lifeS := ec.LifeYears * daysPerYear * secondsPerDay
	kw := e.c.PowerW / wattsPerKW * ec.PUE
	energyUSD := kw * lifeS / secondsPerHr * ec.USDPerKWh
	if usd := e.c.CapexUSD + energyUSD; usd > 0 {
		r.TokensPerDollar = tokS * lifeS / usd
	}
	if kw > 0 {
		r.TokensPerKWh = tokS * secondsPerHr / kw
	}
}

// baselines adds the same layout over TCP on the back end's links, on
// the front end alone (with EP kept in the NVLink domain, as the front
// end carries no RDMA all-to-all), and with decode EP kept in the
// NVLink domain.
func (e *estimator) baselines(r *Result, plan setting) {
	add := func(key, label string, s setting) {
		b := e.run(s)
		bl := Baseline{Key: key, Label: label, TokensSPerGPU: b.TokensSPerGPU, TTFTS: b.TTFTS, TPOTS: b.Decode.TPOTS, KVSPerRequest: b.KV.SPerRequest, Fits: true}
		if gb := e.memoryGB(1, s.decodeEP); gb > e.c.GPU.HBMGB {
			// A decode that cannot hold one request serves no token:
			// no rate to compare, whatever its timing would be.
			bl = Baseline{Key: key, Label: label,
				Note: fmt.Sprintf("does not fit: %.0f GB per decode GPU at one request, over the %.0f GB of HBM", gb, e.c.GPU.HBMGB)}
		}
		if bl.TokensSPerGPU > 0 {
			bl.Gain = r.TokensSPerGPU / bl.TokensSPerGPU
		}
		r.Baselines = append(r.Baselines, bl)
	}
	inDomain := min(plan.decodeEP, e.c.NVLinkDomain)
	if plan.kvVia == RDMA && e.in.Layout != LayoutColocated {
		add(BaselineTCP, "KV moved by TCP over the same links", setting{kvVia: TCP, decodeEP: plan.decodeEP})
	}
	if e.c.FrontEndGbpsPerServer > 0 {
		add(BaselineFrontEnd, "the front end alone: KV by TCP over its NICs, decode EP kept in the NVLink domain", setting{kvVia: FrontEnd, decodeEP: inDomain})
	}
	if inDomain < plan.decodeEP {
		add(BaselineEPNVLink, fmt.Sprintf("decode EP kept in the NVLink domain (EP %d)", inDomain), setting{kvVia: plan.kvVia, decodeEP: inDomain})
	}
}

// findings adds what a planner should read first: where the decode's
// all-to-all runs, the KV move, the pools' balance, the targets and the
// memory.
func (e *estimator) findings(r *Result, plan setting) {
	add := func(format string, args ...any) { r.Findings = append(r.Findings, fmt.Sprintf(format, args...)) }
	if ep := plan.decodeEP; ep > e.c.NVLinkDomain && e.m.moe() {
		add("decode EP %d leaves the %d-GPU NVLink domain: its all-to-all crosses the back end, %.1f ms of each %.1f ms step",
			ep, e.c.NVLinkDomain, effectS(r.Effects, whatEPNet)*1e3, r.Decode.TPOTS*1e3)
	}
	if r.KV.SPerRequest > 0 {
		add("each request moves %.0f MB of KV cache in %.1f ms (%s, %.0f GB/s): %.0f%% of the TTFT",
			r.KV.BytesPerRequest/1e6, r.KV.SPerRequest*1e3, r.KV.Via, r.KV.GBs, 100*r.KV.ShareOfTTFT)
	}
	if dc := float64(r.DecodeGPUs) * r.Decode.TokensSPerGPU; e.in.Layout != LayoutColocated && dc > 0 {
		if used := r.TokensSPerGPU * float64(r.PrefillGPUs+r.DecodeGPUs) / dc; used < 1 {
			add("the prefill pool limits throughput: the decode pool runs at %.0f%% of its rate; move GPUs to prefill", 100*used)
		}
	}
	e.targetFindings(r, add)
	if gb := e.memoryGB(r.Decode.Batch, plan.decodeEP); gb > e.c.GPU.HBMGB {
		add("decode batch %d needs %.0f GB per GPU, more than the %.0f GB of HBM", r.Decode.Batch, gb, e.c.GPU.HBMGB)
	}
}

// targetFindings says which of the scenario's targets r misses.
func (e *estimator) targetFindings(r *Result, add func(format string, args ...any)) {
	if t := e.in.TargetTPOTS; t > 0 && r.Decode.TPOTS > t {
		add("the TPOT target %.3f s is not met even at batch 1 (%.3f s)", t, r.Decode.TPOTS)
	}
	if t := e.in.TargetTTFTS; t > 0 && r.TTFTS > t {
		add("the TTFT target %.2f s is not met (%.2f s)", t, r.TTFTS)
	}
	if t := e.in.TargetRequestsS; t > 0 && r.RequestsS < t {
		add("the cluster serves %.0f requests/s, short of the %.0f target", r.RequestsS, t)
	}
}

// whatEPNet names the exposed EP all-to-all over the back end in a
// step's effects.
const whatEPNet = "EP all-to-all beyond the NVLink domain (exposed)"

// effectS is the seconds of the effect named what in es (0: none).
func effectS(es []Effect, what string) float64 {
	for _, x := range es {
		if x.What == what {
			return x.S
		}
	}
	return 0
}
