package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// The recorded watch responses of benchmarks/src/bin/watch_decode.rs: one file per kind
// and wire, the response body exactly as the server sent it.
var watchWires = []struct {
	ext, contentType, accept string
}{
	{"json", "application/json", "application/json"},
	{"pb", "application/vnd.kubernetes.protobuf;stream=watch", "application/vnd.kubernetes.protobuf;stream=watch"},
}

// WatchFile is where the watch of kind (ConfigMap, Pod) in wire (json, pb) is recorded.
func WatchFile(dir, kind, ext string) string {
	return filepath.Join(dir, kind+"."+ext)
}

// RecordWatch writes, for each kind and wire, the body of a watch of namespace default
// from resourceVersion `from` on the server at url, cut after its first n events (the
// replayed creations): newline-delimited JSON WatchEvents, or protobuf WatchEvent frames
// each behind its 4-byte big-endian length.
func RecordWatch(url, from, dir string, counts map[string]int) error {
	resources := map[string]string{"ConfigMap": "configmaps", "Pod": "pods"}
	for kind, n := range counts {
		for _, w := range watchWires {
			u := fmt.Sprintf("%s/api/v1/namespaces/default/%s?watch=true&resourceVersion=%s", url, resources[kind], from)
			if err := recordOne(u, w.accept, n, WatchFile(dir, kind, w.ext)); err != nil {
				return fmt.Errorf("%s %s: %w", kind, w.ext, err)
			}
		}
	}
	return nil
}

func recordOne(url, accept string, n int, path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s: %s: %s", url, resp.Status, b)
	}
	r := bufio.NewReaderSize(resp.Body, 1<<20)
	var out bytes.Buffer
	protobuf := accept != "application/json"
	for i := 0; i < n; i++ {
		if protobuf {
			var size [4]byte
			if _, err := io.ReadFull(r, size[:]); err != nil {
				return fmt.Errorf("event %d: %w", i, err)
			}
			frame := make([]byte, binary.BigEndian.Uint32(size[:]))
			if _, err := io.ReadFull(r, frame); err != nil {
				return fmt.Errorf("event %d: %w", i, err)
			}
			out.Write(size[:])
			out.Write(frame)
		} else {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return fmt.Errorf("event %d: %w", i, err)
			}
			out.Write(line)
		}
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}

// recorded answers every request with a recorded watch body, from memory.
type recorded struct {
	body        []byte
	contentType string
}

func (rt recorded) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK,
		Status:     "200 OK",
		Header:     http.Header{"Content-Type": []string{rt.contentType}},
		Body:       io.NopCloser(bytes.NewReader(rt.body)),
		Request:    req,
	}, nil
}

// DecodeWatch measures client-go v0.36.3's watch decoding alone: the typed clientset's
// Watch (as an informer's ListWatch calls it) over a transport that answers with a
// recorded body from memory, so that everything after the response arrives is
// client-go's own path (rest.Request.newStreamWatcher: the framer of the content type,
// streaming.NewDecoder with the clientset's scheme codec, watch.StreamWatcher's typed
// events on its channel). For each kind and wire, the median of `iterations` passes
// over every event, in events per second.
func DecodeWatch(dir string, counts map[string]int, iterations int, enc *json.Encoder) error {
	for _, kind := range []string{"ConfigMap", "Pod"} {
		n, ok := counts[kind]
		if !ok {
			continue
		}
		for _, w := range watchWires {
			body, err := os.ReadFile(WatchFile(dir, kind, w.ext))
			if err != nil {
				return err
			}
			cfg := &rest.Config{
				Host:      "http://recorded.invalid",
				QPS:       -1,
				Transport: recorded{body: body, contentType: w.contentType},
			}
			cfg.ContentType = w.contentType
			cfg.AcceptContentTypes = w.contentType
			cs, err := kubernetes.NewForConfig(cfg)
			if err != nil {
				return err
			}
			rates := make([]float64, 0, iterations)
			for i := 0; i < iterations; i++ {
				rate, err := decodeOnce(cs, kind, n)
				if err != nil {
					return fmt.Errorf("%s %s: %w", kind, w.ext, err)
				}
				rates = append(rates, rate)
			}
			sort.Float64s(rates)
			op := "watch_decode_json_per_s"
			if w.ext == "pb" {
				op = "watch_decode_protobuf_per_s"
			}
			if err := enc.Encode(CacheResult{Kind: kind, Op: op, Objects: n, Value: rates[len(rates)/2]}); err != nil {
				return err
			}
		}
	}
	return nil
}

func decodeOnce(cs *kubernetes.Clientset, kind string, n int) (float64, error) {
	ctx := context.Background()
	start := time.Now()
	var w watch.Interface
	var err error
	switch kind {
	case "ConfigMap":
		w, err = cs.CoreV1().ConfigMaps("default").Watch(ctx, metav1.ListOptions{})
	default:
		w, err = cs.CoreV1().Pods("default").Watch(ctx, metav1.ListOptions{})
	}
	if err != nil {
		return 0, err
	}
	defer w.Stop()
	got := 0
	for ev := range w.ResultChan() {
		if ev.Type == watch.Error {
			return 0, fmt.Errorf("watch error: %v", ev.Object)
		}
		got++
	}
	if got != n {
		return 0, fmt.Errorf("decoded %d events, not %d", got, n)
	}
	return float64(n) / time.Since(start).Seconds(), nil
}
