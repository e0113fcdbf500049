package perf

import (
	"testing"
	"unsafe"
)

// TestLocalMemoKey: an estimate's memo of all-reduces inside one NVLink
// domain answers as timing them afresh does, asked (after the first
// question) questions that each differ from the first in one input: the bytes, the
// ranks, NVLink SHARP made unavailable (the in-network effect), a forced
// algorithm, the GPU's NVLink bandwidth and NVLS efficiency, another
// JCTData, and a group of as many ranks that leaves the domain (tp 8 at
// stride 2 over 8-GPU servers), each a new answer held (or for the last
// two, passed by). The transport and an ideal back end are not in the
// key (they do not reach a group inside the domain): those questions
// must be answered from the memo, and equal the fresh answer.
// Mutations caught: a key without the bytes, the ranks, the NVLS
// efficiency (the in-network effect's step given the NVLS time), the
// forced algorithm or the NVLink line rate; the memo serving another
// JCTData; a group that leaves the domain answered from it (the local
// check dropped); and, by the answers held, a memo that never answers
// (nothing saved) or a key holding the transport.
func TestLocalMemoKey(t *testing.T) {
	d := testData(t)
	d2 := *d
	d2.protocols = append([]*Protocol(nil), d.protocols...)
	simple := *d2.protocols[len(d2.protocols)-1]
	simple.RingBaseUS *= 3
	d2.protocols[len(d2.protocols)-1] = &simple
	h100 := d.GPUs["h100"]
	fastLink, lessNVLS := *h100, *h100
	fastLink.NVLinkGBs *= 2
	lessNVLS.NVLSEfficiency *= 0.9
	type question struct {
		name      string
		bytes     float64
		ranks     int
		stride    int
		gpu       *GPUSpec
		d         *JCTData
		tr        Transport
		noNVLS    bool
		ideal     bool
		algorithm string
		grows     bool // a new answer held
	}
	base := question{name: "tp 8, 64 MiB", bytes: 64 << 20, ranks: 8, stride: 1, gpu: h100, d: d, grows: true}
	edits := []struct {
		name string
		edit func(q *question)
	}{
		{"again", func(q *question) { q.grows = false }},
		{"TCP/IP", func(q *question) { q.tr, q.grows = TCP, false }},
		{"ideal back end", func(q *question) { q.ideal, q.grows = true, false }},
		{"4 KiB", func(q *question) { q.bytes = 4 << 10 }},
		{"4 ranks", func(q *question) { q.ranks = 4 }},
		{"NVLS off", func(q *question) { q.noNVLS = true }},
		{"forced ring", func(q *question) { q.algorithm = AlgoRing }},
		{"twice the NVLink", func(q *question) { q.gpu = &fastLink }},
		{"less NVLS", func(q *question) { q.gpu = &lessNVLS }},
		{"other data", func(q *question) { q.d, q.grows = &d2, false }},
		{"leaves the domain", func(q *question) { q.stride, q.grows = 2, false }},
	}
	var c localMemo
	ask := func(q question) {
		t.Helper()
		fv := collectiveView(8, 8, 400, InfiniBand)
		fv.noNVLS, fv.ideal, fv.algorithm = q.noNVLS, q.ideal, q.algorithm
		fresh := newNetModel(fv, q.gpu, q.d, q.tr)
		want := fresh.allReduce(q.bytes, fresh.groupP(q.ranks, q.stride))
		fv.locals = &c
		m := newNetModel(fv, q.gpu, q.d, q.tr)
		held := c.n
		got := m.allReduce(q.bytes, m.groupP(q.ranks, q.stride))
		if got != want {
			t.Errorf("%s: %+v from the memo, %+v afresh", q.name, got, want)
		}
		if grew := c.n > held; grew != q.grows {
			t.Errorf("%s: a new answer held %v, want %v", q.name, grew, q.grows)
		}
	}
	for _, e := range edits {
		c = localMemo{d: d}
		ask(base)
		q := base
		q.name = e.name
		e.edit(&q)
		ask(q)
	}
}

// TestJCTSizeClass: an estimate's one allocation, the JCT (its traffic
// classes, effects and local memo inside it), stays within Go's 2,304-
// byte size class, the next being 2,688: the memo was added within it
// (maxEffects 12 to 11, the memo's answers by index). Mutation caught:
// a memo of four slots, or of its answers as collTimes (strings), which
// made every estimate allocate 384 bytes more for the collector. Go
// (1.22 on) puts an 8-byte header before an object of more than 512
// bytes that holds pointers (runtime/mbitmap.go, mallocHeaderSize), so
// the JCT itself may take 2,296: at 2,304 (a training stack added to
// the Workload) the estimate allocated 2,688 (BenchmarkJCT 2,960 ->
// 3,344 B/op), which this test, checking 2,304, let through.
func TestJCTSizeClass(t *testing.T) {
	const mallocHeader = 8
	if n := unsafe.Sizeof(JCT{}) + mallocHeader; n > 2304 {
		t.Errorf("a JCT is %d bytes with its malloc header, over the 2,304-byte size class", n)
	}
}
