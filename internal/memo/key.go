package memo

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// MaxSame is how many Same inputs one key may hold.
const MaxSame = 4

// Key is the comparable key of a set of inputs (Of): their encoding, and
// the inputs given by identity (Same), which the key keeps alive so
// that their addresses are never reused by another value while a result
// is kept under it.
type Key struct {
	enc  string
	same [MaxSame]any
}

// String is the key's encoding in hexadecimal, its identity inputs by
// type and address (for tests and messages).
func (k Key) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%x", k.enc)
	for _, s := range k.same {
		if s != nil {
			fmt.Fprintf(&b, " %T@%p", s, s)
		}
	}
	return b.String()
}

// same is an input keyed by identity (Same).
type same struct{ p any }

// Same marks p, a pointer to a value that is never changed once made
// (a loaded catalog, quotes read from a file), as an input keyed by its
// identity: Of does not encode what it points at. A nil pointer is
// keyed as nil. Of panics when p is not a pointer.
func Same(p any) any { return same{p} }

// Of is the key of inputs: two calls give equal keys exactly when their
// inputs have equal types and equal values, read through every field,
// element and pointer. Particulars:
//   - a float is keyed by its bits, so 0 and -0 differ (they print
//     differently); every NaN is one key (a NaN never equals itself, but
//     the same inputs must find their result);
//   - a nil slice or map differs from an empty one (JSON writes null and
//     [] apart), a nil pointer from a pointer to a zero value;
//   - a map is keyed by its entries, whatever their order;
//   - an interface by its dynamic type and value;
//   - a pointer met again within its own value (a cycle) by how far up
//     it was met;
//   - Same inputs by identity, at most MaxSame of them in one key.
//
// Functions, channels and unsafe pointers cannot be keyed: Of panics.
func Of(inputs ...any) Key {
	e := encoders.Get().(*encoder)
	e.buf, e.stack, e.nsame = e.buf[:0], e.stack[:0], 0
	var k Key
	for _, in := range inputs {
		// The common plain inputs without reflection (a key is made on
		// every re-plan, some on every point of a sweep), each tagged
		// apart from a reflected one's type.
		switch x := in.(type) {
		case same:
			e.addSame(&k, x.p)
		case string:
			e.buf = append(e.buf, tagString)
			e.str(x)
		case int:
			e.buf = append(e.buf, tagInt)
			e.buf = binary.AppendVarint(e.buf, int64(x))
		case float64:
			e.buf = append(e.buf, tagFloat)
			e.float(x)
		case bool:
			e.buf = append(e.buf, tagBool, b2byte(x))
		case nil:
			e.buf = append(e.buf, tagNil)
		default:
			v := reflect.ValueOf(in)
			e.buf = append(e.buf, tagValue)
			e.typ(v.Type())
			e.value(v)
		}
	}
	k.enc = string(e.buf)
	if cap(e.buf) <= maxPooled {
		encoders.Put(e)
	}
	return k
}

// maxPooled is the largest buffer kept for the next key: keys are small
// (a scenario's inputs are a few hundred bytes); a rare large one is let
// go rather than held.
const maxPooled = 64 << 10

// encoders are buffers for Of, reused: a key costs one allocation, its
// string.
var encoders = sync.Pool{New: func() any { return &encoder{buf: make([]byte, 0, 512)} }}

// encoder is one key's encoding under way.
type encoder struct {
	buf   []byte
	stack []uintptr // the pointers being encoded, outermost first (cycles)
	nsame int
}

// Tags that start a value whose kind alone does not say how long it is,
// and an input to Of by its kind.
const (
	tagNil byte = iota
	tagSome
	tagBack
	tagSame
	tagString
	tagInt
	tagFloat
	tagBool
	tagValue // any other input: its type, then its value
)

func (e *encoder) addSame(k *Key, p any) {
	if p != nil && reflect.TypeOf(p).Kind() != reflect.Pointer {
		panic(fmt.Sprintf("memo.Same(%T): not a pointer", p))
	}
	if e.nsame == MaxSame {
		panic(fmt.Sprintf("memo.Of: more than %d Same inputs", MaxSame))
	}
	k.same[e.nsame] = p
	e.nsame++
	e.buf = append(e.buf, tagSame)
	if p != nil {
		e.typ(reflect.TypeOf(p)) // a nil of one type and of another differ
	}
}

// typ writes t's identity (the address of its type descriptor, unique
// in the program and fixed for its life): inputs of different types
// never share a key, even of one name in two packages.
func (e *encoder) typ(t reflect.Type) {
	e.buf = binary.LittleEndian.AppendUint64(e.buf, uint64(reflect.ValueOf(t).Pointer()))
}

func (e *encoder) uint(u uint64) { e.buf = binary.AppendUvarint(e.buf, u) }

func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

func (e *encoder) float(f float64) {
	if f != f {
		f = math.NaN() // one NaN for all
	}
	e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(f))
}

// value writes v, whose type the reader knows from the enclosing type.
func (e *encoder) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		e.buf = append(e.buf, b2byte(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = binary.AppendVarint(e.buf, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.uint(v.Uint())
	case reflect.Float32, reflect.Float64:
		e.float(v.Float())
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		e.float(real(c))
		e.float(imag(c))
	case reflect.String:
		e.str(v.String())
	case reflect.Struct:
		for i := range v.NumField() {
			e.value(v.Field(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.Slice:
		e.slice(v)
	case reflect.Map:
		e.mapValue(v)
	case reflect.Pointer:
		e.pointer(v)
	case reflect.Interface:
		e.iface(v)
	default:
		panic(fmt.Sprintf("memo.Of: cannot key a %s", v.Type()))
	}
}

// slice writes slice v: nil apart from empty, its length, then its
// elements (bytes as they are).
func (e *encoder) slice(v reflect.Value) {
	if v.IsNil() {
		e.buf = append(e.buf, tagNil)
		return
	}
	e.buf = append(e.buf, tagSome)
	e.uint(uint64(v.Len()))
	if v.Type().Elem().Kind() == reflect.Uint8 {
		e.buf = append(e.buf, v.Bytes()...)
		return
	}
	for i := range v.Len() {
		e.value(v.Index(i))
	}
}

// iface writes interface v: nil, or its dynamic type and value.
func (e *encoder) iface(v reflect.Value) {
	if v.IsNil() {
		e.buf = append(e.buf, tagNil)
		return
	}
	el := v.Elem()
	e.buf = append(e.buf, tagSome)
	e.typ(el.Type())
	e.value(el)
}

// pointer writes what non-nil pointer v points at, or where up the
// values being written it was met (a cycle).
func (e *encoder) pointer(v reflect.Value) {
	if v.IsNil() {
		e.buf = append(e.buf, tagNil)
		return
	}
	addr := v.Pointer()
	if i := slices.Index(e.stack, addr); i >= 0 {
		e.buf = append(e.buf, tagBack)
		e.uint(uint64(len(e.stack) - i))
		return
	}
	e.buf = append(e.buf, tagSome)
	e.stack = append(e.stack, addr)
	e.value(v.Elem())
	e.stack = e.stack[:len(e.stack)-1]
}

// mapValue writes map v's entries sorted by their keys' encodings.
func (e *encoder) mapValue(v reflect.Value) {
	if v.IsNil() {
		e.buf = append(e.buf, tagNil)
		return
	}
	e.buf = append(e.buf, tagSome)
	e.uint(uint64(v.Len()))
	if v.Len() == 0 {
		return
	}
	type entry struct{ kv []byte } // the key's encoding, then the value's
	entries := make([]entry, 0, v.Len())
	outer := e.buf
	for it := v.MapRange(); it.Next(); {
		e.buf = nil
		e.value(it.Key())
		e.value(it.Value())
		entries = append(entries, entry{e.buf})
	}
	// By the key's encoding, then the value's: an encoding is never the
	// start of another of its type, so this is the keys' order, and two
	// NaN keys (one encoding) are put in their values' order.
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(string(a.kv), string(b.kv)) })
	e.buf = outer
	for _, en := range entries {
		e.buf = append(e.buf, en.kv...)
	}
}

func b2byte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
