package model

import (
	"sync"
	"time"
)

// Clock starts the debouncer's timers: AfterFunc calls f on its own
// goroutine once d has passed, as time.AfterFunc does.
type Clock interface {
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a call a Clock will make; Stop cancels it and reports whether
// it did so before the call started, as (*time.Timer).Stop does.
type Timer interface {
	Stop() bool
}

// realClock is the wall clock: time.AfterFunc.
type realClock struct{}

// AfterFunc is time.AfterFunc.
func (realClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Debouncer runs the latest job submitted once submissions pause for
// Delay, on its own goroutine; jobs replaced before they start never run.
type Debouncer struct {
	Delay time.Duration
	// Clock times the pause (nil: the wall clock); tests pass one they
	// advance by hand.
	Clock Clock

	mu      sync.Mutex
	idle    *sync.Cond
	timer   Timer
	pending int // jobs waiting or running
}

// Submit schedules job in place of any job still waiting.
func (d *Debouncer) Submit(job func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil && d.timer.Stop() {
		d.pending-- // the job it replaces never runs
	}
	d.pending++
	d.timer = d.clock().AfterFunc(d.Delay, func() {
		defer d.done()
		job()
	})
}

// clock is d.Clock, or the wall clock when it is nil.
func (d *Debouncer) clock() Clock {
	if d.Clock == nil {
		return realClock{}
	}
	return d.Clock
}

func (d *Debouncer) done() {
	d.mu.Lock()
	d.pending--
	if d.idle != nil {
		d.idle.Broadcast()
	}
	d.mu.Unlock()
}

// Wait blocks until no job is waiting or running.
func (d *Debouncer) Wait() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.idle == nil {
		d.idle = sync.NewCond(&d.mu)
	}
	for d.pending > 0 {
		d.idle.Wait()
	}
}

// Pending is the number of jobs waiting or running.
func (d *Debouncer) Pending() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.pending
}
