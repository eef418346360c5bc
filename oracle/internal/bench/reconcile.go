package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// ReconcileResult is one reconcile-loop measurement: the median time, over Runs runs,
// from a full queue of Objects requests to the last of their no-op reconciles.
type ReconcileResult struct {
	Op      string  `json:"op"`
	Workers int     `json:"workers"`
	Objects int     `json:"objects"`
	NsPerOp float64 `json:"ns_per_op"`
	Runs    int     `json:"runs"`
}

// Reconcile measures controller-runtime's reconcile loop as benchmarks/benches/reconcile.rs
// measures ours and kube-runtime's: objects requests queued, a reconcile that returns at
// once, with 1 and 4 reconciles at a time; the timer starts once the queue is full (the
// source fills it and reports itself synced, so no worker runs before), and stops at the
// last reconcile.
func Reconcile(objects, runs int, enc *json.Encoder) error {
	log.SetLogger(logr.Discard())
	for _, workers := range []int{1, 4} {
		var times []time.Duration
		// One run first, not counted: the first pays for warming up.
		for r := 0; r <= runs; r++ {
			d, err := reconcileOnce(objects, workers, fmt.Sprintf("bench-%d-%d", workers, r))
			if err != nil {
				return err
			}
			if r > 0 {
				times = append(times, d)
			}
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		median := times[len(times)/2]
		if err := enc.Encode(ReconcileResult{Op: "reconcile", Workers: workers, Objects: objects, NsPerOp: float64(median.Nanoseconds()), Runs: runs}); err != nil {
			return err
		}
	}
	return nil
}

// filledQueue is a source that puts every request in the queue when started and reports
// itself synced once they are all there: the controller starts its workers after that.
type filledQueue struct {
	objects int
	filled  chan struct{}
	at      time.Time
}

func (s *filledQueue) Start(_ context.Context, q workqueue.TypedRateLimitingInterface[reconcile.Request]) error {
	go func() {
		for i := 0; i < s.objects; i++ {
			q.Add(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: fmt.Sprintf("cm-%05d", i)}})
		}
		s.at = time.Now()
		close(s.filled)
	}()
	return nil
}

func (s *filledQueue) WaitForSync(ctx context.Context) error {
	select {
	case <-s.filled:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func reconcileOnce(objects, workers int, name string) (time.Duration, error) {
	var count atomic.Int64
	done := make(chan struct{})
	var last time.Time
	skip := true
	c, err := controller.NewTypedUnmanaged(name, controller.TypedOptions[reconcile.Request]{
		MaxConcurrentReconciles: workers,
		SkipNameValidation:      &skip,
		Reconciler: reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			if count.Add(1) == int64(objects) {
				last = time.Now()
				close(done)
			}
			return reconcile.Result{}, nil
		}),
	})
	if err != nil {
		return 0, err
	}
	src := &filledQueue{objects: objects, filled: make(chan struct{})}
	if err := c.Watch(src); err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- c.Start(ctx) }()
	select {
	case <-done:
	case err := <-errc:
		return 0, fmt.Errorf("the controller stopped: %v", err)
	case <-time.After(60 * time.Second):
		return 0, fmt.Errorf("%d of %d reconciled in 60 s", count.Load(), objects)
	}
	cancel()
	if err := <-errc; err != nil {
		return 0, err
	}
	return last.Sub(src.at), nil
}
