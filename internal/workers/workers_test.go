package workers

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A panic in a worker comes back from Wait as a *PanicError with its
// value and stack, the other workers finish, and the process lives.
// Mutations caught: no recover in Go (the test binary dies), the panic
// dropped (Wait returns nil), the slot not freed after a panic (the
// limited group deadlocks on the next Go).
func TestPanicBecomesError(t *testing.T) {
	for _, limit := range []int{0, 1, 3} {
		g := NewGroup(limit)
		var ran atomic.Int64
		for i := range 10 {
			g.Go(func() {
				if i == 4 {
					panic("worker 4 broke")
				}
				ran.Add(1)
			})
		}
		err := g.Wait()
		var pe *PanicError
		if !errors.As(err, &pe) || pe.Value != "worker 4 broke" || !strings.Contains(string(pe.Stack), "workers_test.go") {
			t.Fatalf("limit %d: Wait = %v, want the worker's panic with its stack", limit, err)
		}
		if ran.Load() != 9 {
			t.Errorf("limit %d: %d other workers ran, want 9", limit, ran.Load())
		}
	}
}

// A limited group never runs more than its limit at once, and a group
// without panics waits for all. Mutations caught: the semaphore taken
// inside the goroutine after the work starts, Wait returning early.
func TestLimitAndWait(t *testing.T) {
	g := NewGroup(2)
	var now, most, done atomic.Int64
	for range 20 {
		g.Go(func() {
			n := now.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			for range 1000 {
				_ = now.Load()
			}
			now.Add(-1)
			done.Add(1)
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if most.Load() > 2 {
		t.Errorf("%d ran at once, limit 2", most.Load())
	}
	if done.Load() != 20 {
		t.Errorf("Wait returned with %d of 20 done", done.Load())
	}
}

// Work started within a budget never holds more than the budget at
// once, work heavier than the whole budget runs alone, and a panic
// gives its bytes back. Mutations caught: take not waiting (the held
// bytes pass the budget), no clamp (the heavy work waits forever: the
// test times out), give skipped on a panic (the next GoWithin
// deadlocks).
func TestBudgetBoundsWorkAtOnce(t *testing.T) {
	b := NewBudget(100)
	var held, most atomic.Int64
	g := NewGroup(0)
	for i := range 30 {
		n := int64(10 + 15*(i%4)) // 10, 25, 40, 55
		if i == 7 {
			n = 250 // heavier than the whole budget
		}
		g.GoWithin(b, n, func() {
			h := held.Add(min(n, 100))
			for {
				m := most.Load()
				if h <= m || most.CompareAndSwap(m, h) {
					break
				}
			}
			time.Sleep(time.Millisecond) // long enough for the others to start
			held.Add(-min(n, 100))
			if i == 12 {
				panic("worker 12 broke")
			}
		})
	}
	var pe *PanicError
	if err := g.Wait(); !errors.As(err, &pe) {
		t.Fatalf("Wait = %v, want worker 12's panic", err)
	}
	if most.Load() > 100 {
		t.Errorf("work held %d bytes at once of a budget of 100", most.Load())
	}
	done := make(chan bool)
	go func() { g2 := NewGroup(0); g2.GoWithin(b, 100, func() {}); _ = g2.Wait(); done <- true }()
	<-done // the whole budget is free again after the panic
}
