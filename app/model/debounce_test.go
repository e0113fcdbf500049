package model

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a Clock that moves only when Advance moves it; a timer
// whose time has come runs on the goroutine that called Advance.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Duration
	timers []*fakeTimer
}

// fakeTimer is one call the fake clock will make at at.
type fakeTimer struct {
	c    *fakeClock
	at   time.Duration
	f    func()
	done bool // run or stopped
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now + d, f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	stopped := !t.done
	t.done = true
	return stopped
}

// Advance moves the clock on by d and runs, in order, every timer due by
// then (a timer due exactly now runs, as time.AfterFunc's would).
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now += d
	var due []*fakeTimer
	for _, t := range c.timers {
		if !t.done && t.at <= c.now {
			t.done = true
			due = append(due, t)
		}
	}
	c.mu.Unlock()
	for _, t := range due {
		t.f()
	}
}

// debounceDelay is the pause the tests give their debouncers.
const debounceDelay = 20 * time.Millisecond

// recorder counts the jobs a debouncer ran and keeps the last one's value.
type recorder struct {
	mu   sync.Mutex
	ran  int
	last int
}

// job is a job that records v when it runs.
func (r *recorder) job(v int) func() {
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.ran++
		r.last = v
	}
}

// check fails t unless the jobs run so far are ran, the last of them last.
func (r *recorder) check(t *testing.T, when string, ran, last int) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ran != ran || r.last != last {
		t.Errorf("%s: ran %d jobs, the last %d; want %d, the last %d", when, r.ran, r.last, ran, last)
	}
}

// newFakeDebouncer is a debouncer on a fake clock.
func newFakeDebouncer() (*Debouncer, *fakeClock) {
	c := &fakeClock{}
	return &Debouncer{Delay: debounceDelay, Clock: c}, c
}

// Two or more edits inside the window run only the last of them, once.
// Mutations caught: running every submitted job (a plan per keystroke;
// the replaced timer not stopped), and running the first value, not the
// latest (a submission while one waits dropped).
func TestDebouncerRunsTheLatest(t *testing.T) {
	d, c := newFakeDebouncer()
	var r recorder
	for i := 1; i <= 5; i++ {
		d.Submit(r.job(i))
		c.Advance(debounceDelay / 10)
	}
	if d.Pending() != 1 {
		t.Errorf("%d jobs pending after a burst; want 1", d.Pending())
	}
	c.Advance(debounceDelay)
	r.check(t, "after the pause", 1, 5)
	if d.Pending() != 0 {
		t.Errorf("%d jobs pending after the last ran; want 0", d.Pending())
	}
}

// An edit between the timer's start and its firing restarts the pause:
// nothing runs at the first edit's deadline nor a nanosecond before the
// second's, and the second runs at its deadline. Mutations caught:
// firing before the delay (the timer set to Delay less a nanosecond),
// and keeping the first edit's deadline (the replaced job runs there).
func TestDebouncerEditRestartsThePause(t *testing.T) {
	d, c := newFakeDebouncer()
	var r recorder
	d.Submit(r.job(1))
	c.Advance(debounceDelay / 2)
	d.Submit(r.job(2))
	c.Advance(debounceDelay / 2)
	r.check(t, "at the first edit's deadline", 0, 0)
	c.Advance(debounceDelay/2 - time.Nanosecond)
	r.check(t, "a nanosecond before the second edit's deadline", 0, 0)
	c.Advance(time.Nanosecond)
	r.check(t, "at the second edit's deadline", 1, 2)
}

// An edit exactly at the boundary, as the timer fires: the first job has
// run, and the edit's job waits its own pause and is counted pending.
// Mutations caught: waiting longer than the delay (the timer set to
// Delay plus a nanosecond), and counting a job that already ran as
// replaced (Stop's result ignored: Pending drops to 0 while one waits).
func TestDebouncerEditAtTheBoundary(t *testing.T) {
	d, c := newFakeDebouncer()
	var r recorder
	d.Submit(r.job(1))
	c.Advance(debounceDelay)
	r.check(t, "at the deadline", 1, 1)
	d.Submit(r.job(2))
	if d.Pending() != 1 {
		t.Errorf("%d jobs pending after an edit at the boundary; want 1", d.Pending())
	}
	c.Advance(debounceDelay)
	r.check(t, "a pause after the boundary", 2, 2)
	if d.Pending() != 0 {
		t.Errorf("%d jobs pending after both ran; want 0", d.Pending())
	}
}

// A debouncer without a clock runs on the wall clock, as the window's
// does. Mutation caught: a nil Clock defaulting to anything but
// time.AfterFunc.
func TestDebouncerDefaultsToTheWallClock(t *testing.T) {
	d := &Debouncer{}
	if _, ok := d.clock().(realClock); !ok {
		t.Fatalf("a debouncer without a clock runs on %T; want the wall clock", d.clock())
	}
	var r recorder
	d.Submit(r.job(1))
	d.Wait()
	r.check(t, "after Wait", 1, 1)
}
