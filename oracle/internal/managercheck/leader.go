package managercheck

import (
	"context"
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// leaderElection: two managers on one Lease; the first elected is stopped (releasing the
// Lease on cancel) and the second must take over well within the lease duration.
func leaderElection(ctx context.Context, env *Env) error {
	lease, renew, retry := 8*time.Second, 6*time.Second, 1*time.Second
	start := func() (manager.Manager, context.CancelFunc, chan error, error) {
		mgr, err := newManager(env, manager.Options{
			LeaderElection:                true,
			LeaderElectionID:              "check-leader",
			LeaderElectionNamespace:       env.Namespace,
			LeaderElectionReleaseOnCancel: true,
			LeaseDuration:                 &lease,
			RenewDeadline:                 &renew,
			RetryPeriod:                   &retry,
		})
		if err != nil {
			return nil, nil, nil, err
		}
		mctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- mgr.Start(mctx) }()
		return mgr, cancel, done, nil
	}
	a, stopA, doneA, err := start()
	if err != nil {
		return err
	}
	defer stopA()
	select {
	case <-a.Elected():
	case <-time.After(20 * time.Second):
		return fmt.Errorf("the first manager was not elected within 20 s")
	}
	b, stopB, doneB, err := start()
	if err != nil {
		return err
	}
	defer stopB()
	select {
	case <-b.Elected():
		return fmt.Errorf("the second manager was elected while the first leads")
	case <-time.After(3 * time.Second):
	}
	stopA()
	if err := <-doneA; err != nil {
		return fmt.Errorf("the first manager stopped with %v", err)
	}
	var l coordinationv1.Lease
	if err := env.Client.Get(ctx, client.ObjectKey{Namespace: env.Namespace, Name: "check-leader"}, &l); err != nil {
		return err
	}
	released := time.Now()
	select {
	case <-b.Elected():
	case <-time.After(lease):
		return fmt.Errorf("the second manager was not elected within the lease duration (%v) after the first released (holder %v)", lease, l.Spec.HolderIdentity)
	}
	took := time.Since(released)
	stopB()
	<-doneB
	if took > lease/2 {
		return fmt.Errorf("the takeover took %v: the Lease was not released", took)
	}
	return nil
}
