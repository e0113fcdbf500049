// Package workers is the one way the engine starts background work: a
// Group runs functions on goroutines, at most a limit at once, and a
// panic in one is recovered and handed to the caller of Wait as a
// *PanicError, instead of killing the process. The window then keeps its
// inputs and shows the crash report, as for its own goroutines.
package workers

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// PanicError is a panic recovered in a worker: its value and the
// worker's stack at the panic.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("internal error in a background worker: %v", e.Value)
}

// Group runs functions on goroutines and waits for them. The zero value
// runs any number at once.
type Group struct {
	wg    sync.WaitGroup
	sem   chan struct{}
	mu    sync.Mutex
	panic *PanicError // the first recovered
}

// NewGroup is a group that runs at most limit functions at once (limit
// 0 or less: no limit).
func NewGroup(limit int) *Group {
	g := &Group{}
	if limit > 0 {
		g.sem = make(chan struct{}, limit)
	}
	return g
}

// Go runs fn on a goroutine of the group, after waiting for a free slot
// when the group has a limit. A panic in fn is recovered; Wait returns
// the first.
func (g *Group) Go(fn func()) {
	g.wg.Add(1)
	if g.sem != nil {
		g.sem <- struct{}{}
	}
	go func() {
		defer g.wg.Done()
		if g.sem != nil {
			defer func() { <-g.sem }()
		}
		defer func() {
			if r := recover(); r != nil {
				g.mu.Lock()
				if g.panic == nil {
					g.panic = &PanicError{Value: r, Stack: debug.Stack()}
				}
				g.mu.Unlock()
			}
		}()
		fn()
	}()
}

// Wait waits for every function the group started and returns the first
// panic among them as a *PanicError (nil when none panicked).
func (g *Group) Wait() error {
	g.wg.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.panic != nil {
		return g.panic
	}
	return nil
}

// Budget is an amount of memory, in bytes, that work started with
// GoWithin takes while it runs: heavy work (a plan laid out in its
// hall at a million GPUs allocates some 50 MB) waits until what it
// weighs fits beside the work already running, so the process's peak
// stays bounded however many designs are laid out at once.
type Budget struct {
	mu   sync.Mutex
	cond *sync.Cond
	size int64 // the bytes there are
	used int64 // the bytes taken
}

// NewBudget is a budget of size bytes.
func NewBudget(size int64) *Budget {
	b := &Budget{size: max(size, 1)}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// Memory is the engine's budget for the work it lays out at once:
// 48 MiB, which at 1,000,000 GPUs lets one plan's hall be walked at a
// time and at 100,000 GPUs seven (issue 48: a 1M-GPU search or report
// peaks under 128 MiB resident).
var Memory = NewBudget(48 << 20)

// take waits until n bytes fit (n is clamped to the budget's size, so
// work heavier than the whole budget runs alone) and takes them.
func (b *Budget) take(n int64) int64 {
	n = min(max(n, 0), b.size)
	b.mu.Lock()
	for b.used+n > b.size {
		b.cond.Wait()
	}
	b.used += n
	b.mu.Unlock()
	return n
}

// give returns n bytes taken.
func (b *Budget) give(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// GoWithin runs fn as Go does, once n bytes of budget b are free (the
// caller waits for them); fn gives them back when it returns or panics.
// Work holding bytes of a budget must never wait for more of the same
// budget.
func (g *Group) GoWithin(b *Budget, n int64, fn func()) {
	taken := b.take(n)
	g.Go(func() {
		defer b.give(taken)
		fn()
	})
}
