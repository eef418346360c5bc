// Package clientcheck runs client-go against an API server, as Go programs use it:
// typed clientsets in protobuf and JSON, list paging, watches, shared informers with an
// indexer feeding a work queue, the dynamic and metadata clients, aggregated discovery
// with a deferred RESTMapper, and server-side apply with apply configurations. Each check
// reports whether the server answered as kube-apiserver does.
package clientcheck

import (
	"context"
	"fmt"
	"io"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/report"
)

// Env is what every check gets: the server's config, clientsets in both content types,
// and a namespace of the run's own.
type Env struct {
	Config    *rest.Config
	JSON      kubernetes.Interface
	Protobuf  kubernetes.Interface
	Namespace string
}

// Check is one named check.
type Check = report.Check[*Env]

// All is every check, in the order they run.
func All() []Check {
	var all []Check
	all = append(all, typedChecks()...)
	all = append(all, watchChecks()...)
	all = append(all, informerChecks()...)
	all = append(all, dynamicChecks()...)
	all = append(all, discoveryChecks()...)
	all = append(all, applyChecks()...)
	return all
}

// NewEnv makes the clientsets and the run's namespace.
func NewEnv(ctx context.Context, config *rest.Config, namespace string) (*Env, error) {
	jsonConfig := rest.CopyConfig(config)
	jsonConfig.ContentType = "application/json"
	jsonConfig.AcceptContentTypes = "application/json"
	pbConfig := rest.CopyConfig(config)
	pbConfig.ContentType = "application/vnd.kubernetes.protobuf"
	pbConfig.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	jsonClient, err := kubernetes.NewForConfig(jsonConfig)
	if err != nil {
		return nil, err
	}
	pbClient, err := kubernetes.NewForConfig(pbConfig)
	if err != nil {
		return nil, err
	}
	env := &Env{Config: config, JSON: jsonClient, Protobuf: pbClient, Namespace: namespace}
	_, err = jsonClient.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{})
	return env, err
}

// Run runs the checks whose names `want` accepts and writes one JSON line per check to
// out; it returns how many failed.
func Run(ctx context.Context, env *Env, checks []Check, out io.Writer) int {
	return report.Run(ctx, env, checks, 60*time.Second, out)
}

// expect fails with a message naming what differed.
func expect(ok bool, format string, args ...interface{}) error {
	if ok {
		return nil
	}
	return fmt.Errorf(format, args...)
}
