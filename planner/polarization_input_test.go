package planner

import (
	"errors"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/perf"
)

// polarizedStep is the step of a spread data-parallel job on a 3-tier
// Ethernet fabric (routing as given) with the workload's polarization
// pol (nil: the data's) and the data's [ecmp] polarization dataPol.
func polarizedStep(t *testing.T, cat *Catalog, gpus int, routing string, pol *float64, dataPol float64) float64 {
	t.Helper()
	d := *cat.JCT
	d.ECMP.Polarization = dataPol
	c := *cat
	c.JCT = &d
	w := dpJob()
	w.Placement = perf.PlaceSpread
	w.GlobalBatchTokens = 8192 << 12
	w.Polarization = pol
	s := NewScenario()
	s.Cluster.GPUs = gpus
	s.Network.Fabric, s.Network.Switch, s.Network.Routing, s.Network.Tiers = Ethernet, "tomahawk5", routing, 3
	s.Workload = &w
	p, err := Build(s, &c)
	if err != nil {
		t.Fatal(err)
	}
	return p.JCT.Planned.StepS
}

// The workload's polarization replaces the data's for the job: a job
// crossing the core on static routing at the input x takes exactly the
// step the data's [ecmp] polarization x gives, the inputs 0 (no
// polarization) and 1 (fully polarized) bracket the data's default
// (0 strictly faster than 1), and adaptive routing, which does not hash,
// is the same at all three. Mutations caught: the input not read (0 and
// 1 equal to the default), read as 1 - x, 0 treated as "not given" (the
// default instead of none), the input charged to adaptive routing.
func TestPolarizationInputBracketsTheDefault(t *testing.T) {
	cat := testCatalog(t)
	def := cat.JCT.ECMP.Polarization
	if !(def > 0 && def < 1) {
		t.Fatalf("data's polarization %g: the bracket needs a default strictly inside 0..1", def)
	}
	at := func(v float64) *float64 { return &v }
	for _, gpus := range []int{6000, 20008} {
		for _, x := range []float64{0, 0.3, 1} {
			got := polarizedStep(t, cat, gpus, RouteStatic, at(x), def)
			want := polarizedStep(t, cat, gpus, RouteStatic, nil, x)
			if got != want {
				t.Errorf("%d GPUs, input %g: step %.6f s, data at %g gives %.6f s", gpus, x, got, x, want)
			}
		}
		none := polarizedStep(t, cat, gpus, RouteStatic, at(0), def)
		dflt := polarizedStep(t, cat, gpus, RouteStatic, nil, def)
		full := polarizedStep(t, cat, gpus, RouteStatic, at(1), def)
		if !(none <= dflt && dflt <= full && none < full) {
			t.Errorf("%d GPUs static: steps %.6f (0), %.6f (default %g), %.6f (1) s; want 0 <= default <= 1, 0 < 1", gpus, none, dflt, def, full)
		}
		a0 := polarizedStep(t, cat, gpus, RouteAdaptive, at(0), def)
		a1 := polarizedStep(t, cat, gpus, RouteAdaptive, at(1), def)
		if ad := polarizedStep(t, cat, gpus, RouteAdaptive, nil, def); a0 != ad || a1 != ad {
			t.Errorf("%d GPUs adaptive: steps %.6f, %.6f, %.6f s at 0, default, 1; want equal", gpus, a0, ad, a1)
		}
	}
}

// The polarization field reads blank as the data's default (nil) and 0
// as a value, rejects shares outside 0..1 leaving the scenario as it was,
// and never writes through a pointer a copy of the scenario shares.
// Mutations caught: 0 shown or stored as blank, out-of-range text
// accepted, a failed Set that changes the scenario, Set writing through
// the shared pointer (a snapshot changed).
func TestPolarizationField(t *testing.T) {
	f, ok := FieldByKey("workload.polarization")
	if !ok {
		t.Fatal("no workload.polarization field")
	}
	for _, c := range []struct {
		text, get string
		nilWant   bool
		bad       bool
	}{
		{"", "", true, false},
		{"0", "0", false, false},
		{" 0.25 ", "0.25", false, false},
		{"1", "1", false, false},
		{"1.5", "0.7", false, true},
		{"-0.1", "0.7", false, true},
		{"half", "0.7", false, true},
	} {
		s := NewScenario()
		start := 0.7
		w := perf.NewWorkload()
		w.Polarization = &start
		s.Workload = &w
		snapshot := s
		err := f.Set(&s, c.text)
		if (err != nil) != c.bad {
			t.Errorf("Set(%q): error %v, want error %v", c.text, err, c.bad)
		}
		if got := f.Get(&s); got != c.get {
			t.Errorf("Set(%q): Get %q, want %q", c.text, got, c.get)
		}
		if (s.Workload.Polarization == nil) != c.nilWant {
			t.Errorf("Set(%q): stored %v, want nil %v", c.text, s.Workload.Polarization, c.nilWant)
		}
		if *snapshot.Workload.Polarization != 0.7 {
			t.Errorf("Set(%q) changed a snapshot's polarization to %g", c.text, *snapshot.Workload.Polarization)
		}
	}
}

// A scenario file's polarization outside 0..1 is an error naming the
// field and the fix; 0 and 1 load. Mutations caught: the range not
// checked (a negative share reaching the model), the error under another
// field, the ends of the range refused.
func TestPolarizationFileRange(t *testing.T) {
	cat := testCatalog(t)
	for _, c := range []struct {
		value string
		bad   bool
	}{{"0", false}, {"1", false}, {"0.5", false}, {"1.01", true}, {"-0.5", true}} {
		src := "schema = 1\n[cluster]\ngpus = 1024\n[workload]\nmodel = \"llama3-8b\"\ngpu = \"h100\"\nglobal_batch_tokens = 4194304\n" +
			"micro_batch = 1\ntp = 8\npp = 1\nvpp = 1\nep = 1\ntokens_total = 1e12\npolarization = " + c.value + "\n"
		s, err := ScenarioFromData([]byte(src))
		if err != nil {
			t.Fatalf("polarization %s: %v", c.value, err)
		}
		err = s.Validate(cat)
		if !c.bad {
			if err != nil {
				t.Errorf("polarization %s: %v", c.value, err)
			}
			continue
		}
		var fe *fielderr.FieldError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "workload.polarization") || !strings.Contains(err.Error(), "0 (independent hashes)") {
			t.Errorf("polarization %s: error %v, want one naming workload.polarization and the range", c.value, err)
		}
	}
}
