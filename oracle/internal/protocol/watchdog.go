package protocol

import (
	"fmt"
	"os"
	"runtime/metrics"
	"time"
)

// heapLimit is what the oracle may hold; a fuzzed object that grows past it (a recursive
// type filled without a bound) ends the process with a message instead of taking the
// machine's memory.
const heapLimit = 4 << 30

// watchHeap exits the process when the live heap passes heapLimit.
func watchHeap() {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for range time.Tick(100 * time.Millisecond) {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > heapLimit {
			fmt.Fprintf(os.Stderr, "k8s-oracle: the heap passed %d bytes while answering a request; stopped\n", uint64(heapLimit))
			os.Exit(3)
		}
	}
}
