package memo

import (
	"math"
	"reflect"
	"testing"
)

// kinds is an input with a field of every kind Of keys.
type kinds struct {
	B     bool
	I     int
	I8    int8
	U     uint16
	F     float64
	F32   float32
	C     complex128
	S     string
	Arr   [2]int
	Sl    []string
	Bytes []byte
	M     map[string]float64
	P     *int
	Inner struct{ X, Y int }
	Any   any
	hid   int // unexported fields count too
	Next  *kinds
}

func sample() kinds {
	one := 1
	return kinds{B: true, I: -3, I8: 4, U: 5, F: 1.5, F32: 2.5, C: complex(1, 2), S: "s", Arr: [2]int{1, 2},
		Sl: []string{"a", "b"}, Bytes: []byte{1}, M: map[string]float64{"x": 1, "y": 2}, P: &one,
		Inner: struct{ X, Y int }{1, 2}, Any: 7, hid: 8}
}

// TestOfEveryField: changing any field of an input, whatever its kind,
// changes the key, so a field added to an input is keyed without a word
// written for it. Mutation caught: a kind the encoder skips (e.g. the
// reflect.Struct case writing only exported fields, or maps ignored):
// that field's edit leaves the key unchanged.
func TestOfEveryField(t *testing.T) {
	base := Of(sample())
	if base != Of(sample()) {
		t.Fatal("two equal inputs key differently")
	}
	n := reflect.TypeFor[kinds]().NumField()
	for i := range n {
		s := sample()
		f := reflect.ValueOf(&s).Elem().Field(i)
		name := reflect.TypeFor[kinds]().Field(i).Name
		switch name {
		case "B":
			s.B = false
		case "I":
			s.I++
		case "I8":
			s.I8++
		case "U":
			s.U++
		case "F":
			s.F++
		case "F32":
			s.F32++
		case "C":
			s.C += 1i
		case "S":
			s.S += "!"
		case "Arr":
			s.Arr[1]++
		case "Sl":
			s.Sl[1] = "c"
		case "Bytes":
			s.Bytes[0]++
		case "M":
			s.M["y"] = 3
		case "P":
			two := 2
			s.P = &two
		case "Inner":
			s.Inner.Y++
		case "Any":
			s.Any = int64(7) // same number, another type
		case "hid":
			s.hid++
		case "Next":
			s.Next = &kinds{}
		default:
			t.Fatalf("field %s (%s) is not edited here: add it", name, f.Kind())
		}
		if Of(s) == base {
			t.Errorf("editing field %s leaves the key unchanged", name)
		}
	}
}

// TestOfFreshPointers: equal values behind different pointers, and maps
// filled in different orders, give one key; nil and empty differ.
// Mutations caught: keying a pointer by its address (fresh pointers
// differ); writing a map in its iteration order (the keys differ now
// and then); writing nil and empty slices alike.
func TestOfFreshPointers(t *testing.T) {
	a, b := sample(), sample()
	a.Next, b.Next = &kinds{S: "n"}, &kinds{S: "n"}
	for range 20 {
		m := map[string]float64{}
		for _, k := range []string{"q", "w", "e", "r", "t", "y"} {
			m[k] = float64(len(k))
		}
		b.M = m
		a.M = map[string]float64{"y": 1, "t": 1, "r": 1, "e": 1, "w": 1, "q": 1}
		if Of(a) != Of(b) {
			t.Fatal("equal values in fresh pointers and maps key differently")
		}
	}
	if Of([]int(nil)) == Of([]int{}) {
		t.Error("a nil slice keys as an empty one")
	}
	if Of((*int)(nil)) == Of(new(int)) {
		t.Error("a nil pointer keys as a pointer to zero")
	}
	if Of(1, 2) == Of(2, 1) || Of("ab", "c") == Of("a", "bc") {
		t.Error("inputs in another order or split differently key alike")
	}
	if Of(int32(1)) == Of(int64(1)) {
		t.Error("inputs of different types key alike")
	}
}

// TestOfFloats: -0 and 0 differ (they print differently); every NaN is
// one key, so a NaN input finds its result again. Mutations caught:
// comparing floats by value (-0 == 0); keying NaN's bits as they are
// (two NaNs of different payloads differ).
func TestOfFloats(t *testing.T) {
	if Of(0.0) == Of(math.Copysign(0, -1)) {
		t.Error("0 and -0 key alike")
	}
	nan2 := math.Float64frombits(math.Float64bits(math.NaN()) ^ 3) // another payload
	if Of(math.NaN()) != Of(nan2) || Of(math.NaN()) != Of(math.NaN()) {
		t.Error("NaNs key differently")
	}
	if Of(float32(math.NaN())) != Of(float32(nan2)) {
		t.Error("float32 NaNs key differently")
	}
	if Of(math.NaN()) == Of(math.Inf(1)) {
		t.Error("NaN keys as infinity")
	}
}

// TestOfSame: Same inputs key by identity (equal values in two pointers
// differ, one pointer edited keys alike), and a cycle through pointers
// is keyed without looping. Mutations caught: Same encoding the value;
// the cycle check removed (stack overflow).
func TestOfSame(t *testing.T) {
	a, b := &kinds{S: "x"}, &kinds{S: "x"}
	if Of(Same(a)) == Of(Same(b)) {
		t.Error("two pointers key alike by identity")
	}
	k := Of(Same(a))
	a.S = "y"
	if Of(Same(a)) != k {
		t.Error("an identity key reads the value")
	}
	if Of(Same((*kinds)(nil))) == Of(Same((*int)(nil))) {
		t.Error("nil pointers of two types key alike")
	}
	c := &kinds{S: "c"}
	c.Next = c
	d := &kinds{S: "c"}
	d.Next = d
	if Of(c) != Of(d) {
		t.Error("equal cycles key differently")
	}
	e := &kinds{S: "c", Next: &kinds{S: "c"}}
	e.Next.Next = e
	if Of(c) == Of(e) {
		t.Error("a cycle of one and a cycle of two key alike")
	}
	defer func() {
		if recover() == nil {
			t.Error("Same of a non-pointer did not panic")
		}
	}()
	Of(Same(1))
}

// TestOfUnkeyable: a function cannot be keyed (no value to read).
func TestOfUnkeyable(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("keying a function did not panic")
		}
	}()
	Of(struct{ F func() }{func() {}})
}

// BenchmarkOf times a key of a struct about the size of a scenario's
// back-end inputs.
func BenchmarkOf(b *testing.B) {
	s := sample()
	b.ReportAllocs()
	for b.Loop() {
		_ = Of(Same(&s), s, s.Inner, "tier", 42)
	}
}

// FuzzOf: whatever the values, Of never panics, and the same values
// built twice key alike; values that differ key differently.
func FuzzOf(f *testing.F) {
	f.Add(true, int64(1), 1.5, "a", []byte{1}, "k", 2.0)
	f.Add(false, int64(-1), math.NaN(), "", []byte(nil), "", math.Copysign(0, -1))
	f.Fuzz(func(t *testing.T, b bool, i int64, x float64, s string, bs []byte, mk string, mv float64) {
		build := func() kinds {
			v := kinds{B: b, I: int(i), F: x, S: s, Bytes: bs, M: map[string]float64{mk: mv}, Any: s}
			if i%2 == 0 {
				v.P = new(int)
				*v.P = int(i)
			}
			v.Sl = append(v.Sl, s, mk)
			return v
		}
		k1, k2 := Of(build()), Of(build())
		if k1 != k2 {
			t.Fatalf("equal inputs key differently: %v vs %v", k1, k2)
		}
		other := build()
		other.S += "x"
		if Of(other) == k1 {
			t.Fatal("inputs that differ key alike")
		}
	})
}
