package main

// A pool hands out up to n buffers, made as they are first asked for, and
// takes them back through free: the buffers of a pipeline, so that a short
// input makes one, and a stuck writer stops the reader once all n are out.
// One goroutine at a time may get; any may put them back on free.
type pool[T any] struct {
	free    chan T
	made, n int
	alloc   func() T
}

// newPool returns a pool of up to n buffers that alloc makes.
func newPool[T any](n int, alloc func() T) *pool[T] {
	return &pool[T]{free: make(chan T, n), n: n, alloc: alloc}
}

// get returns a buffer given back, else a new one while fewer than n are
// made, else waits for one to come back.
func (p *pool[T]) get() T {
	select {
	case b := <-p.free:
		return b
	default:
	}
	if p.made < p.n {
		p.made++
		return p.alloc()
	}
	if poolWaitHook != nil {
		poolWaitHook()
	}
	return <-p.free
}

// poolWaitHook, where a test sets it, is called by a get that is about to
// wait for a buffer to come back, all n being out: the moment a stuck
// writer has stopped the reader, which the tests then see without waiting
// for it on a clock.
var poolWaitHook func()
