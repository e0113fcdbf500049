package planner

import (
	"fabricplan/planner/perf"
	"math"
	"reflect"
	"strconv"
	"testing"
)

// floatsWalked lists every float the reflective walk (allFinite)
// reaches from v, as settable values, with their paths; root follows a
// pointer to a struct. It fails the test where a slice it walks is
// empty or a pointer nil (the sample would not reach the floats inside)
// and where it meets an interface (the typed walk cannot follow one).
func floatsWalked(t *testing.T, v reflect.Value, path string, root bool, out map[string]reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		out[path] = v
	case reflect.Interface:
		t.Errorf("%s is an interface: finitePlan cannot walk it", path)
	case reflect.Pointer:
		switch {
		case v.Type().Elem().Kind() == reflect.Struct && !root: // a catalog entry, not walked
		case v.IsNil():
			t.Errorf("%s is nil in the sample plan: the floats it points at go unchecked", path)
		default:
			floatsWalked(t, v.Elem(), path, false, out)
		}
	case reflect.Struct:
		for _, i := range exportedFields(v.Type()) {
			floatsWalked(t, v.Field(i), path+"."+v.Type().Field(i).Name, false, out)
		}
	case reflect.Slice, reflect.Array:
		if v.Len() == 0 && holdsFloat(v.Type().Elem(), map[reflect.Type]bool{}) {
			t.Errorf("%s is empty in the sample plan: the floats of its elements go unchecked", path)
		}
		for i := range v.Len() {
			floatsWalked(t, v.Index(i), path+"["+strconv.Itoa(i)+"]", false, out)
		}
	}
}

// Every float the reflective finiteness walk reaches in a plan's cost,
// power and JCT estimate, set to NaN and to +Inf in turn, fails the
// typed walk (finitePlan) and checkFinite. Catches a float
// field added to Money, Watts, PriceDriver, JCT, Workload, MemoryUse,
// StepTime, TrafficClass or Effect and not walked in finite.go (a NaN
// that reaches a screen), and a field the typed walk reads twice while
// leaving another out.
func TestFiniteWalkCoversFloats(t *testing.T) {
	cat := testCatalog(t)
	w := perf.NewWorkload()
	half := 0.5
	w.Polarization, w.OverlapDP, w.OverlapPP, w.OverlapTP, w.OverlapEP, w.OverlapCP = &half, &half, &half, &half, &half, &half
	s := planBenchScenario(4096)
	s.Workload = &w
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if !finitePlan(p) {
		t.Fatal("the typed walk fails a finite plan")
	}
	floats := map[string]reflect.Value{}
	floatsWalked(t, reflect.ValueOf(&p.Cost).Elem(), "cost", false, floats)
	floatsWalked(t, reflect.ValueOf(&p.Power).Elem(), "power", false, floats)
	floatsWalked(t, reflect.ValueOf(p.JCT), "jct", true, floats)
	t.Logf("%d floats walked", len(floats))
	if len(floats) < 40 {
		t.Fatalf("the walk reached %d floats: the sample plan misses some", len(floats))
	}
	for _, path := range SortedKeys(floats) {
		f := floats[path]
		was := f.Float()
		for _, bad := range []float64{math.NaN(), math.Inf(1)} {
			f.SetFloat(bad)
			if finitePlan(p) {
				t.Errorf("%s = %g: the typed walk finds every figure finite", path, bad)
			}
			if err := p.checkFinite(); err == nil {
				t.Errorf("%s = %g: checkFinite passes the plan", path, bad)
			}
		}
		f.SetFloat(was)
	}
	if !finitePlan(p) {
		t.Error("the typed walk fails the plan restored")
	}
}
