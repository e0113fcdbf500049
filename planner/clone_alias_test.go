package planner

import (
	"reflect"
	"testing"
)

// TestCloneSharesNothing fills every pointer, slice and map a Scenario
// can reach (nested ones too) and checks that Clone's copy shares none
// of them with the original, so an edit of the copy can never reach the
// original's inputs. Mutations caught: a field added to the Scenario, its
// Workload, Reliability, Networks, Growth, Facility or Phases as a
// pointer, slice or map and left out of Clone (the workload's
// polarization and context-parallel overlap were: an edit of a pinned
// plan's copy changed the pin).
func TestCloneSharesNothing(t *testing.T) {
	s := NewScenario()
	fillReachable(reflect.ValueOf(&s).Elem(), 0)
	c := s.Clone()
	if !s.Equal(c) {
		t.Fatal("a filled scenario's clone is not Equal to it")
	}
	for _, path := range sharedPaths(reflect.ValueOf(s), reflect.ValueOf(c), "Scenario") {
		if path == "Scenario.Quotes" {
			continue // loaded read-only; the memos key the quotes by identity
		}
		t.Errorf("%s is shared between a scenario and its clone", path)
	}
}

// fillReachable gives every nil pointer a value, every empty slice one
// element and every nil map one entry, down to depth 6, so each can be
// checked for sharing.
func fillReachable(v reflect.Value, depth int) {
	if depth > 6 || !v.CanSet() && v.Kind() != reflect.Struct {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillReachable(v.Elem(), depth+1)
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := range v.Len() {
			fillReachable(v.Index(i), depth+1)
		}
	case reflect.Map:
		if v.IsNil() {
			m := reflect.MakeMap(v.Type())
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillReachable(e, depth+1)
			m.SetMapIndex(k, e)
			v.Set(m)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillReachable(v.Field(i), depth+1)
			}
		}
	}
}

// sharedPaths lists the pointers, slices and maps a and b share.
func sharedPaths(a, b reflect.Value, path string) []string {
	var out []string
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return nil
		}
		if a.Pointer() == b.Pointer() {
			return []string{path}
		}
		return sharedPaths(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Len() > 0 && b.Len() > 0 && a.Pointer() == b.Pointer() {
			return []string{path}
		}
		for i := range min(a.Len(), b.Len()) {
			out = append(out, sharedPaths(a.Index(i), b.Index(i), path+"[i]")...)
		}
	case reflect.Map:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			return []string{path}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				out = append(out, sharedPaths(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name)...)
			}
		}
	}
	return out
}
