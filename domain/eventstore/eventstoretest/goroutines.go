package eventstoretest

import "runtime"

func goroutines() int { return runtime.NumGoroutine() }

func goroutineStacks() string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, true)])
}
