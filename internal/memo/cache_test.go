package memo

import (
	"fmt"
	"sync"
	"testing"
)

// TestCacheLRU: the least recently used result goes first, a Get counts
// as a use, and Put replaces a key's result. Mutations caught: Get not
// moving the entry to the front (the read key is dropped), dropping the
// newest instead of the oldest.
func TestCacheLRU(t *testing.T) {
	c := New[string](3)
	for i := range 3 {
		c.Put(Of(i), fmt.Sprint(i))
	}
	if _, ok := c.Get(Of(0)); !ok { // 0 becomes the newest
		t.Fatal("0 not kept")
	}
	c.Put(Of(3), "3") // drops 1, the least recently used
	if _, ok := c.Get(Of(1)); ok {
		t.Error("1, the least recently used, was kept")
	}
	for _, i := range []int{0, 2, 3} {
		if v, ok := c.Get(Of(i)); !ok || v != fmt.Sprint(i) {
			t.Errorf("%d: %q %v", i, v, ok)
		}
	}
	c.Put(Of(2), "two")
	if v, _ := c.Get(Of(2)); v != "two" || c.Len() != 3 {
		t.Errorf("replaced: %q, %d kept", v, c.Len())
	}
	if c.Hits() != 5 {
		t.Errorf("%d hits, want 5", c.Hits())
	}
	c.Forget()
	if _, ok := c.Get(Of(0)); ok || c.Len() != 0 {
		t.Error("Forget kept a result")
	}
}

// TestCacheWeight: results beyond the budget push the oldest out; one
// heavier than the budget is not kept. Mutation caught: the weight not
// taken back when a result is dropped (the cache empties itself).
func TestCacheWeight(t *testing.T) {
	c := NewWeighted[int](10, 10, func(v int) int { return v })
	c.Put(Of("a"), 4)
	c.Put(Of("b"), 4)
	c.Put(Of("c"), 4) // 12 > 10: a goes
	if _, ok := c.Get(Of("a")); ok {
		t.Error("over budget, the oldest stayed")
	}
	if c.Len() != 2 {
		t.Errorf("%d kept, want 2", c.Len())
	}
	c.Put(Of("d"), 11)
	if _, ok := c.Get(Of("d")); ok || c.Len() != 2 {
		t.Error("a result over the whole budget was kept, or pushed the others out")
	}
	for range 20 {
		c.Put(Of("e"), 2)
	}
	if c.Len() != 3 {
		t.Errorf("re-putting one key: %d kept, want 3", c.Len())
	}
}

// TestCacheConcurrent: many goroutines keying, getting and putting at
// once (run under -race). Mutation caught: Get without the lock (the
// race detector reports it).
func TestCacheConcurrent(t *testing.T) {
	c := New[int](4)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				k := Of(struct{ G, I int }{g, i % 6})
				if v, ok := c.Get(k); ok && v != i%6 {
					t.Errorf("got %d for %d", v, i%6)
				}
				c.Put(k, i%6)
				if i%100 == 0 {
					c.Forget()
				}
			}
		})
	}
	wg.Wait()
	if c.Len() > 4 {
		t.Errorf("%d kept, cap 4", c.Len())
	}
}
