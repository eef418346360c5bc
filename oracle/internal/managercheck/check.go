// Package managercheck runs Go's controller-runtime (v0.24.1, built on Kubernetes
// 1.36's modules) against an API server, as Go operators use it: a manager whose
// reconciler owns objects through a finalizer, the cache with a field index, leader
// election between two managers, admission webhooks served by the manager and called by
// the server, and a conversion webhook for a two-version custom resource.
package managercheck

import (
	"context"
	"fmt"
	"io"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/report"
)

// Env is what every check gets.
type Env struct {
	Config    *rest.Config
	Client    client.Client
	Namespace string
	// Host is the address the server reaches the webhooks at (the manager listens there).
	Host string
}

// Check is one named check.
type Check = report.Check[*Env]

// All is every check, in the order they run.
func All() []Check {
	return []Check{
		{Name: "a reconciler that mirrors ConfigMaps behind a finalizer", Run: mirror},
		{Name: "the cache with a field index", Run: fieldIndex},
		{Name: "leader election: the second manager takes over when the first stops", Run: leaderElection},
		{Name: "validating and mutating webhooks served by the manager", Run: admissionWebhooks},
		{Name: "a conversion webhook for a two-version custom resource", Run: conversionWebhook},
	}
}

// NewEnv makes the run's client and namespace.
func NewEnv(ctx context.Context, config *rest.Config, namespace, host string) (*Env, error) {
	// client-go's scheme and the CRD types (the conversion check creates one).
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return nil, err
	}
	if err := apiextensionsv1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	c, err := client.New(config, client.Options{Scheme: scheme})
	if err != nil {
		return nil, err
	}
	for _, ns := range []string{namespace, namespace + "-copies"} {
		if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			return nil, err
		}
	}
	return &Env{Config: config, Client: c, Namespace: namespace, Host: host}, nil
}

// newManager is a manager with its metrics and probes off (ports are the runner's).
func newManager(env *Env, opts manager.Options) (manager.Manager, error) {
	opts.Metrics = metricsserver.Options{BindAddress: "0"}
	opts.HealthProbeBindAddress = "0"
	return ctrl.NewManager(env.Config, opts)
}

// Run runs the checks and writes one JSON line per check; it returns how many failed.
func Run(ctx context.Context, env *Env, checks []Check, out io.Writer) int {
	return report.Run(ctx, env, checks, 90*time.Second, out)
}

// poll calls cond until it is true, the error it returns non-nil, or 30 s pass.
func poll(ctx context.Context, what string, cond func() (bool, error)) error {
	deadline := time.Now().Add(30 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		ok, err := cond()
		if ok {
			return nil
		}
		last = err
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	if last != nil {
		return fmt.Errorf("%s: not within 30 s (last: %v)", what, last)
	}
	return fmt.Errorf("%s: not within 30 s", what)
}
