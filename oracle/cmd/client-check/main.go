// Command client-check runs client-go v0.36.3 against an API server (kube-apiserver or
// `kapi serve`) and prints one JSON line per check: {"check", "ok", "detail", "seconds"}.
// It exits 1 when a check failed.
//
// Usage: client-check --kubeconfig FILE [--namespace NAME] [--only SUBSTRING]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/clientcheck"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "the kubeconfig of the server")
	namespace := flag.String("namespace", "client-check", "a namespace the run creates and uses")
	only := flag.String("only", "", "run only the checks whose names contain this")
	flag.Parse()
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "client-check:", err)
		os.Exit(2)
	}
	ctx := context.Background()
	env, err := clientcheck.NewEnv(ctx, config, *namespace)
	if err != nil {
		fmt.Fprintln(os.Stderr, "client-check: namespace:", err)
		os.Exit(2)
	}
	var checks []clientcheck.Check
	for _, c := range clientcheck.All() {
		if strings.Contains(c.Name, *only) {
			checks = append(checks, c)
		}
	}
	if clientcheck.Run(ctx, env, checks, os.Stdout) > 0 {
		os.Exit(1)
	}
}
