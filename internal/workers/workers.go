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
