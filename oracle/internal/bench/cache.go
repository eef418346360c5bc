package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// CacheResult is one measurement of benchmarks/src/bin/cache.rs's Go column: heap bytes
// per object held by controller-runtime's cache, or watch events decoded per second by
// client-go.
type CacheResult struct {
	Kind    string  `json:"kind"`
	Op      string  `json:"op"`
	Objects int     `json:"objects"`
	Value   float64 `json:"value"`
}

// heap is the live heap after two collections (the second frees what the first's
// finalizers released).
func heap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// Cache measures, against the API server at url (plain HTTP, no credentials, as the Rust
// benchmark's in-process server), what Go's controller-runtime v0.24.1 and client-go
// v0.36.3 do with the same objects as ours: bytes per object in the cache of every
// ConfigMap and Pod (as shipped, and with cache.TransformStripManagedFields), and the
// objects per second a client-go watch from resourceVersion `from` decodes in protobuf
// and JSON; and, with managedFields stripped, the time of a Get and of a List per object
// (each deep-copying, as controller-runtime's cache reader does unless told not to).
func Cache(url, from string, configmaps, pods int, enc *json.Encoder) error {
	cfg := &rest.Config{Host: url, QPS: -1}
	kinds := []struct {
		name string
		n    int
		obj  func() client.Object
		list func() client.ObjectList
	}{
		{"ConfigMap", configmaps, func() client.Object { return &corev1.ConfigMap{} }, func() client.ObjectList { return &corev1.ConfigMapList{} }},
		{"Pod", pods, func() client.Object { return &corev1.Pod{} }, func() client.ObjectList { return &corev1.PodList{} }},
	}
	for _, k := range kinds {
		for _, strip := range []bool{false, true} {
			b, reads, err := cacheBytes(cfg, k.obj, k.list, k.n, strip)
			if err != nil {
				return fmt.Errorf("%s cache: %w", k.name, err)
			}
			op := "cache_bytes"
			if strip {
				op = "cache_bytes_strip_managed_fields"
			}
			if err := enc.Encode(CacheResult{Kind: k.name, Op: op, Objects: k.n, Value: b}); err != nil {
				return err
			}
			if !strip {
				continue
			}
			for _, r := range []struct {
				op string
				ns float64
			}{{"cache_get_ns", reads.get}, {"cache_list_ns_per_object", reads.list}} {
				if err := enc.Encode(CacheResult{Kind: k.name, Op: r.op, Objects: k.n, Value: r.ns}); err != nil {
					return err
				}
			}
		}
		for _, ct := range []string{"application/vnd.kubernetes.protobuf", "application/json"} {
			rate, err := watchRate(cfg, k.name, from, k.n, ct)
			if err != nil {
				return fmt.Errorf("%s watch: %w", k.name, err)
			}
			op := "watch_json_per_s"
			if ct != "application/json" {
				op = "watch_protobuf_per_s"
			}
			if err := enc.Encode(CacheResult{Kind: k.name, Op: op, Objects: k.n, Value: rate}); err != nil {
				return err
			}
		}
	}
	return nil
}

// readCost is what a read from the cache costs, in nanoseconds: a Get, and a List per
// object returned, both with the deep copy controller-runtime makes by default.
type readCost struct{ get, list float64 }

func cacheBytes(cfg *rest.Config, newObj func() client.Object, newList func() client.ObjectList, n int, strip bool) (float64, readCost, error) {
	var reads readCost
	obj, list := newObj(), newList()
	before := heap()
	opts := cache.Options{Scheme: clientgoscheme.Scheme}
	if strip {
		opts.DefaultTransform = cache.TransformStripManagedFields()
	}
	c, err := cache.New(cfg, opts)
	if err != nil {
		return 0, reads, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := c.GetInformer(ctx, obj); err != nil {
		return 0, reads, err
	}
	go func() { _ = c.Start(ctx) }()
	if !c.WaitForCacheSync(ctx) {
		return 0, reads, fmt.Errorf("the cache did not sync")
	}
	if err := c.List(ctx, list, client.UnsafeDisableDeepCopy); err != nil {
		return 0, reads, err
	}
	if got := apimeta.LenList(list); got != n {
		return 0, reads, fmt.Errorf("the cache holds %d objects, not %d", got, n)
	}
	var keys []client.ObjectKey
	if err := apimeta.EachListItem(list, func(o kruntime.Object) error {
		m, err := apimeta.Accessor(o)
		if err == nil {
			keys = append(keys, client.ObjectKey{Namespace: m.GetNamespace(), Name: m.GetName()})
		}
		return err
	}); err != nil {
		return 0, reads, err
	}
	list = nil
	after := heap()
	// Reads after the heap figure, so that what they allocate is not counted in it.
	start := time.Now()
	for _, key := range keys {
		if err := c.Get(ctx, key, newObj()); err != nil {
			return 0, reads, err
		}
	}
	reads.get = float64(time.Since(start).Nanoseconds()) / float64(len(keys))
	const lists = 5
	start = time.Now()
	for i := 0; i < lists; i++ {
		if err := c.List(ctx, newList()); err != nil {
			return 0, reads, err
		}
	}
	reads.list = float64(time.Since(start).Nanoseconds()) / float64(lists*n)
	runtime.KeepAlive(c)
	return float64(after-before) / float64(n), reads, nil
}

func watchRate(cfg *rest.Config, kind, from string, n int, contentType string) (float64, error) {
	c := rest.CopyConfig(cfg)
	c.ContentType = contentType
	c.AcceptContentTypes = contentType
	cs, err := kubernetes.NewForConfig(c)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	opts := metav1.ListOptions{ResourceVersion: from}
	start := time.Now()
	var w watch.Interface
	switch kind {
	case "ConfigMap":
		w, err = cs.CoreV1().ConfigMaps("default").Watch(ctx, opts)
	default:
		w, err = cs.CoreV1().Pods("default").Watch(ctx, opts)
	}
	if err != nil {
		return 0, err
	}
	defer w.Stop()
	got := 0
	for got < n {
		ev, ok := <-w.ResultChan()
		if !ok {
			break
		}
		if ev.Type == watch.Error {
			return 0, fmt.Errorf("watch error: %v", ev.Object)
		}
		got++
	}
	if got != n {
		return 0, fmt.Errorf("the watch replayed %d events, not %d", got, n)
	}
	return float64(n) / time.Since(start).Seconds(), nil
}
