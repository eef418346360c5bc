package managercheck

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// fieldIndex: the manager's cache indexes ConfigMaps by a data key, and a list matching
// the field reads the index.
func fieldIndex(ctx context.Context, env *Env) error {
	mgr, err := newManager(env, manager.Options{})
	if err != nil {
		return err
	}
	err = mgr.GetFieldIndexer().IndexField(ctx, &corev1.ConfigMap{}, "data.owner", func(o client.Object) []string {
		if owner, ok := o.(*corev1.ConfigMap).Data["owner"]; ok {
			return []string{owner}
		}
		return nil
	})
	if err != nil {
		return err
	}
	mctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	for i, owner := range []string{"ann", "bob", "ann"} {
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: env.Namespace, Name: fmt.Sprintf("indexed-%d", i)},
			Data:       map[string]string{"owner": owner},
		}
		if err := env.Client.Create(ctx, cm); err != nil {
			return err
		}
	}
	var list corev1.ConfigMapList
	if err := poll(ctx, "two ConfigMaps of ann from the index", func() (bool, error) {
		err := mgr.GetCache().List(ctx, &list, client.InNamespace(env.Namespace), client.MatchingFields{"data.owner": "ann"})
		return err == nil && len(list.Items) == 2, err
	}); err != nil {
		return err
	}
	stop()
	return <-done
}
