package memo

import "sync"

// Cache keeps the results of the last few distinct inputs by their Key,
// the least recently used dropped first. Safe for concurrent use. The
// results are handed out as kept: a result a caller may change must be
// copied by the caller, on the way in and out.
type Cache[V any] struct {
	mu        sync.Mutex
	capacity  int
	maxWeight int         // 0: no budget
	weigh     func(V) int // nil: every result weighs nothing
	weight    int         // the results' weight
	index     map[Key]*entry[V]
	head      entry[V] // a ring: head.next is the most recently used
	hits      int64
}

// entry is one result kept, in the ring of recency.
type entry[V any] struct {
	key        Key
	val        V
	weight     int
	prev, next *entry[V]
}

// New is a cache of at most capacity results.
func New[V any](capacity int) *Cache[V] {
	return NewWeighted[V](capacity, 0, nil)
}

// NewWeighted is a cache of at most capacity results whose weights
// (weigh's) add up to at most maxWeight: the least recently used go
// until a new result fits. A result heavier than maxWeight alone is not
// kept.
func NewWeighted[V any](capacity, maxWeight int, weigh func(V) int) *Cache[V] {
	c := &Cache[V]{capacity: max(1, capacity), maxWeight: maxWeight, weigh: weigh}
	c.head.prev, c.head.next = &c.head, &c.head
	return c
}

// Get is the result kept under k, which becomes the most recently used.
func (c *Cache[V]) Get(k Key) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	en := c.index[k]
	if en == nil {
		var zero V
		return zero, false
	}
	c.unlink(en)
	c.pushFront(en)
	c.hits++
	return en.val, true
}

// Put keeps v under k, in place of what k held, dropping the least
// recently used results beyond the cache's capacity or budget.
func (c *Cache[V]) Put(k Key, v V) {
	w := 0
	if c.weigh != nil {
		w = c.weigh(v)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.index[k]; old != nil {
		c.remove(old)
	}
	if c.maxWeight > 0 && w > c.maxWeight {
		return
	}
	for len(c.index) >= c.capacity || (c.maxWeight > 0 && c.weight+w > c.maxWeight) {
		c.remove(c.head.prev)
	}
	if c.index == nil {
		c.index = make(map[Key]*entry[V], c.capacity)
	}
	en := &entry[V]{key: k, val: v, weight: w}
	c.index[k] = en
	c.weight += w
	c.pushFront(en)
}

// Forget drops every result kept.
func (c *Cache[V]) Forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.index, c.weight = nil, 0
	c.head.prev, c.head.next = &c.head, &c.head
}

// Len is the number of results kept.
func (c *Cache[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.index)
}

// Hits is the number of Gets that found a result (for tests: an input
// the key should leave out must hit).
func (c *Cache[V]) Hits() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

func (c *Cache[V]) remove(en *entry[V]) {
	c.unlink(en)
	delete(c.index, en.key)
	c.weight -= en.weight
}

func (c *Cache[V]) unlink(en *entry[V]) {
	en.prev.next, en.next.prev = en.next, en.prev
	en.prev, en.next = nil, nil
}

func (c *Cache[V]) pushFront(en *entry[V]) {
	en.prev, en.next = &c.head, c.head.next
	c.head.next.prev = en
	c.head.next = en
}
