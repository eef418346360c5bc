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
// and JSON.
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
			b, err := cacheBytes(cfg, k.obj(), k.list(), k.n, strip)
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

func cacheBytes(cfg *rest.Config, obj client.Object, list client.ObjectList, n int, strip bool) (float64, error) {
	before := heap()
	opts := cache.Options{Scheme: clientgoscheme.Scheme}
	if strip {
		opts.DefaultTransform = cache.TransformStripManagedFields()
	}
	c, err := cache.New(cfg, opts)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := c.GetInformer(ctx, obj); err != nil {
		return 0, err
	}
	go func() { _ = c.Start(ctx) }()
	if !c.WaitForCacheSync(ctx) {
		return 0, fmt.Errorf("the cache did not sync")
	}
	if err := c.List(ctx, list, client.UnsafeDisableDeepCopy); err != nil {
		return 0, err
	}
	if got := apimeta.LenList(list); got != n {
		return 0, fmt.Errorf("the cache holds %d objects, not %d", got, n)
	}
	list = nil
	after := heap()
	runtime.KeepAlive(c)
	return float64(after-before) / float64(n), nil
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
