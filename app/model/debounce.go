package model

import (
	"sync"
	"time"
)

// Debouncer runs the latest job submitted once submissions pause for
// Delay, on its own goroutine; jobs replaced before they start never run.
type Debouncer struct {
	Delay time.Duration

	mu      sync.Mutex
	idle    *sync.Cond
	timer   *time.Timer
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
	d.timer = time.AfterFunc(d.Delay, func() {
		defer d.done()
		job()
	})
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
