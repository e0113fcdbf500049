package planner

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"
	"unsafe"

	"fabricplan/data"
	"fabricplan/planner/hall"
)

// forgetHalls empties the hall memo.
func forgetHalls() {
	hallMemo.Forget()
	forgetBackEnds() // they hold halls too: a back end kept would skip the hall memo
}

// walkedPlan builds s with the memo off: the plain walk of every link,
// the reference the memo is checked against.
func walkedPlan(t *testing.T, s Scenario, cat *Catalog) *Plan {
	t.Helper()
	hallMemoOff.Store(true)
	defer hallMemoOff.Store(false)
	p, err := Build(s, cat)
	if err != nil {
		t.Fatalf("build without the memo: %v", err)
	}
	return p
}

// hallMemoCases are plans laid out in a hall over every catalog system,
// both fabrics, every design style, one to three tiers, odd sizes,
// uplink and core uplink speeds, every row order and leaf placement.
func hallMemoCases(t *testing.T, cat *Catalog) map[string]Scenario {
	out := map[string]Scenario{}
	for _, key := range SortedKeys(cat.Systems) {
		s := NewScenario()
		s.Cluster.System, s.Cluster.GPUs = key, 3000
		out["system-"+key] = s.WithSystem(cat)
	}
	eth := func(gpus int, sw string) Scenario {
		s := NewScenario()
		s.Cluster.GPUs, s.Network.Fabric, s.Network.Switch = gpus, Ethernet, sw
		return s
	}
	out["ib-1000"] = ibScenario(1000)
	s := ibScenario(56)
	s.Network.Tiers = 1
	out["ib-56-one-tier"] = s
	s = ibScenario(7000)
	s.Network.Tiers, s.Network.SpineOversubscription = 3, "3:1"
	out["ib-7000-three-tiers"] = s
	out["eth-24576"] = eth(24_576, "tomahawk5")
	s = eth(3000, "tomahawk5")
	s.Network.Topology = TopoDualPlane
	out["dual-plane-3000"] = s
	s = eth(3000, "tomahawk5")
	s.Network.Topology = TopoToR
	out["top-of-rack-3000"] = s
	s = eth(1000, "tomahawk5")
	s.Network.Topology = TopoRailOnly
	out["rail-only-1000"] = s
	s = NewScenario()
	s.Cluster.GPUs, s.Network.Fabric, s.Network.Switch, s.Network.NICGbps = 24_576, InfiniBand, "q3400", 800
	s.Network.Tiers, s.Network.UplinkGbps, s.Network.CoreUplinkGbps = 3, 800, 400
	out["q3400-800g-core-400g"] = s
	for _, order := range []string{hall.RowsNetFirst, hall.RowsNetMiddle, hall.RowsNetLast} {
		for _, place := range hall.LeafPlacements {
			s := ibScenario(3000)
			s.Facility = &hall.Facility{RowOrder: order, LeafPlacement: place, RackKW: 60}
			if place == hall.PlaceToR {
				s.Facility.RackUnits = 52 // room for the leaves above the servers
			}
			out["ib-3000-"+order+"-"+place] = s
		}
	}
	for _, name := range []string{"ib-xdr-100k", "alibaba-hpn-pod"} { // 200G down, 400G up
		src, err := data.FS.ReadFile("scenarios/" + name + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		if out[name], err = ScenarioFromData(src); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// linkPrint is a cable map reduced for comparison: links by medium and
// length sold, and a hash of every row in order.
type linkPrint struct {
	byMedium map[string]int
	rows     int
	hash     uint64
}

func printLinks(t *testing.T, p *Plan) linkPrint {
	t.Helper()
	out := linkPrint{byMedium: map[string]int{}}
	h := fnv.New64a()
	var b [8]byte
	err := p.WalkCables(func(c *CableRun) error {
		out.rows++
		out.byMedium[string(c.Medium)+"@"+strconv.FormatFloat(c.Metres, 'g', -1, 64)]++
		for _, s := range []string{c.ADevice, c.APort, c.BDevice, c.BPort, c.Tier, string(c.Medium), c.Part, c.AModule, c.BModule, c.ARack, c.BRack} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
		for _, f := range []float64{c.Metres, c.RunM, float64(c.ARow), float64(c.BRow), float64(c.AU), float64(c.BU), float64(c.Gbps)} {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(f))
			h.Write(b[:])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out.hash = h.Sum64()
	return out
}

// sameHall fails unless got's hall results are want's: the BOM line by
// line, the link tiers, transceiver counts, cost and power, notes, the
// hall's racks and figures, the cable map and each tier's rack pairs.
func sameHall(t *testing.T, what string, want, got *Plan) {
	t.Helper()
	if got.Hall == nil || want.Hall == nil {
		t.Fatalf("%s: no hall (want %v, got %v)", what, want.Hall != nil, got.Hall != nil)
	}
	checks := []struct {
		name      string
		want, got any
	}{
		{"BOM", want.BOM, got.BOM},
		{"link tiers", want.LinkTiers, got.LinkTiers},
		{"server transceivers", want.ServerTransceivers, got.ServerTransceivers},
		{"switch transceivers", want.SwitchTransceivers, got.SwitchTransceivers},
		{"cost", want.Cost, got.Cost},
		{"power", want.Power, got.Power},
		{"notes", want.Notes, got.Notes},
		{"racks", want.Hall.Racks, got.Hall.Racks},
		{"rows", want.Hall.Rows, got.Hall.Rows},
		{"figures", want.Hall.Figures, got.Hall.Figures},
		{"cable map", printLinks(t, want), printLinks(t, got)},
	}
	for _, lt := range want.LinkTiers {
		wp, err := want.RackPairs(context.Background(), lt.Name)
		if err != nil {
			t.Fatal(err)
		}
		gp, err := got.RackPairs(context.Background(), lt.Name)
		if err != nil {
			t.Fatal(err)
		}
		checks = append(checks, struct {
			name      string
			want, got any
		}{"rack pairs " + lt.Name, wp, gp})
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.want, c.got) {
			t.Errorf("%s: %s differ:\nwant %+v\n got %+v", what, c.name, c.want, c.got)
		}
	}
}

// A plan that takes its hall from the memo equals the plain walk of
// every link, over every system, style, tier count, odd size, speed,
// row order and leaf placement; the plan that stored it too. The second
// plan must really come from the memo (the same *hall.Hall). Mutations
// caught: link BOM lines not replayed or replayed twice, the link
// tiers' runs, media or module counts not restored, the layout's notes
// dropped, the media chooser kept bound to the first plan (a nil plan
// in the cable map's walk), a memo never hit.
func TestHallMemoMatchesWalk(t *testing.T) {
	cat := testCatalog(t)
	for name, s := range hallMemoCases(t, cat) {
		t.Run(name, func(t *testing.T) {
			ref := walkedPlan(t, s, cat)
			if ref.Hall == nil {
				t.Fatalf("no hall laid out: %v", ref.Notes)
			}
			forgetHalls()
			first, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			again, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if again.Hall != first.Hall || ref.Hall == first.Hall {
				t.Fatalf("the second plan did not take the first's hall from the memo")
			}
			sameHall(t, "first plan", ref, first)
			sameHall(t, "plan from the memo", ref, again)
		})
	}
}

// Every scenario field is in the hall's key, or named here as one the
// hall never reads (cleared by hallInputs): each field edited in turn
// (by reflection, so a field added later is edited too) changes the key
// exactly when it is not named. Mutations caught: hallInputs clearing a
// field the hall reads (the facility: its edit keeps the key), or no
// longer clearing one it never reads (the workload: a workload edit lays
// the hall out again).
func TestHallKeyCoversScenario(t *testing.T) {
	notRead := []string{"Schema", "Name", "Workload", "Reliability", "Networks", "Storage", "Phases", "Growth", "flatLinks"}
	cat := testCatalog(t)
	p := &Plan{Scenario: ibScenario(1000)}
	base := hallKeyOf(p, cat)
	st := reflect.TypeFor[Scenario]()
	for i := range st.NumField() {
		name := st.Field(i).Name
		q := &Plan{Scenario: ibScenario(1000)}
		f := reflect.ValueOf(&q.Scenario).Elem().Field(i)
		pokeValue(reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem())
		if changed := hallKeyOf(q, cat) != base; changed == slices.Contains(notRead, name) {
			t.Errorf("scenario field %s: key changed %v, but it is listed as read by the hall %v", name, changed, !changed)
		}
	}
}

// pokeValue changes settable v to another value of its type: its first
// field or element changed, a nil pointer, slice or map made non-nil.
func pokeValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 1)
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		} else {
			pokeValue(v.Elem())
		}
	case reflect.Slice:
		v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		v.SetMapIndex(reflect.Zero(v.Type().Key()), reflect.Zero(v.Type().Elem()))
	case reflect.Struct:
		f := v.Field(0)
		pokeValue(reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem())
	default:
		panic("pokeValue: " + v.Kind().String())
	}
}

// An edit of any keyed input after a plan replans the hall; an edit of
// the workload alone takes it from the memo. Each edit is checked to
// change the hall's results (else the check could not fail). Mutations
// caught: the prices, the price basis, the facility, the cluster or the
// network left out of hallKeyOf (the edited plan keeps the old media or
// racks); the workload in the key (no reuse after a workload edit); the
// replayed runs shared with the memo (an edit of one plan's runs shows
// in the next).
func TestHallMemoEdits(t *testing.T) {
	cat := testCatalog(t)
	base := ibScenario(1000)
	base.Facility = &hall.Facility{}
	edits := []struct {
		name string
		edit func(s *Scenario)
	}{
		{"price of a cable", func(s *Scenario) { s.Prices = map[string]float64{"dac": 1e6, "acc": 1e6} }},
		{"price basis", func(s *Scenario) { s.Pricing.Basis = BasisList }},
		{"facility rack budget", func(s *Scenario) { s.Facility = &hall.Facility{RackKW: 20} }},
		{"facility row order", func(s *Scenario) { s.Facility = &hall.Facility{RowOrder: hall.RowsNetFirst, RacksPerRow: 12} }},
		{"cluster size", func(s *Scenario) { s.Cluster.GPUs = 1024 }},
		{"network oversubscription", func(s *Scenario) { s.Network.Oversubscription = "2:1" }},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			forgetHalls()
			before, err := Build(base, cat)
			if err != nil {
				t.Fatal(err)
			}
			s := base.Clone()
			e.edit(&s)
			after, err := Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			ref := walkedPlan(t, s, cat)
			sameHall(t, "after the edit", ref, after)
			if reflect.DeepEqual(before.BOM, ref.BOM) && reflect.DeepEqual(before.Hall.Racks, ref.Hall.Racks) {
				t.Errorf("the edit changes neither the BOM nor the racks: it cannot show a stale hall")
			}
		})
	}
	t.Run("workload", func(t *testing.T) {
		forgetHalls()
		if _, err := Build(base, cat); err != nil {
			t.Fatal(err)
		}
		before, err := Build(base, cat) // from the memo
		if err != nil {
			t.Fatal(err)
		}
		before.LinkTiers[0].Runs[0].Links = -1 // a caller's edit of its plan
		s := base.Clone()
		w := before.defaultWorkload(cat.JCT)
		w.PP = 2
		s.Workload = &w
		after, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		if after.Hall != before.Hall {
			t.Errorf("a workload edit laid the hall out again")
		}
		sameHall(t, "after a workload edit", walkedPlan(t, s, cat), after)
	})
}

// Plans of one scenario built at once (the window's plan beside a
// comparison's) share the memo safely and agree with the plain walk;
// run under -race. Catches an unguarded memo map or a stored hall
// written after it is shared.
func TestHallMemoConcurrent(t *testing.T) {
	cat := testCatalog(t)
	s := ibScenario(3000)
	ref := walkedPlan(t, s, cat)
	forgetHalls()
	plans := make([]*Plan, 4)
	errs := make([]error, len(plans))
	var wg sync.WaitGroup
	for i := range plans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			plans[i], errs[i] = Build(s, cat)
		}()
	}
	wg.Wait()
	for i, p := range plans {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		sameHall(t, fmt.Sprintf("plan %d", i), ref, p)
	}
}

// The memo keeps at most hallMemoCap halls however many plans pass
// through it, and every plan past the cap is still right. Catches a memo
// that never lets go (the window's memory growing with every edit of the
// cluster size).
func TestHallMemoBounded(t *testing.T) {
	cat := testCatalog(t)
	forgetHalls()
	for g := range hallMemoCap + 3 {
		s := ibScenario(512 + 8*g)
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		n := hallMemo.Len()
		if n > hallMemoCap || n == 0 {
			t.Fatalf("after %d plans the memo holds %d halls, want 1 to %d", g+1, n, hallMemoCap)
		}
		if g == hallMemoCap+2 {
			sameHall(t, "a plan past the cap", walkedPlan(t, s, cat), p)
		}
	}
}
