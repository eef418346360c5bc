// Command manager-check runs Go's controller-runtime v0.24.1 against an API server
// (kube-apiserver or `kapi serve`) and prints one JSON line per check: {"check", "ok",
// "detail", "seconds"}. It exits 1 when a check failed. The webhooks it serves listen on
// --host, which the server must reach.
//
// Usage: manager-check --kubeconfig FILE [--namespace NAME] [--host 127.0.0.1] [--only SUBSTRING]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/managercheck"
)

func main() {
	namespace := flag.String("namespace", "manager-check", "a namespace the run creates and uses (and NAME-copies)")
	host := flag.String("host", "127.0.0.1", "the address the webhooks listen on, which the server must reach")
	only := flag.String("only", "", "run only the checks whose names contain this")
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr)))
	// controller-runtime registers --kubeconfig itself (and reads KUBECONFIG too).
	config, err := ctrl.GetConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "manager-check:", err)
		os.Exit(2)
	}
	ctx := context.Background()
	env, err := managercheck.NewEnv(ctx, config, *namespace, *host)
	if err != nil {
		fmt.Fprintln(os.Stderr, "manager-check: namespaces:", err)
		os.Exit(2)
	}
	var checks []managercheck.Check
	for _, c := range managercheck.All() {
		if strings.Contains(c.Name, *only) {
			checks = append(checks, c)
		}
	}
	if managercheck.Run(ctx, env, checks, os.Stdout) > 0 {
		os.Exit(1)
	}
}
