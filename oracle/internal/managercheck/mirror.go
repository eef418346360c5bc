package managercheck

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// The labels and finalizer of our `configmap-mirror` example, which this reconciler is
// the Go twin of.
const (
	mirrorTo   = "mirror.example.com/to"
	mirrorFrom = "mirror.example.com/from"
	finalizer  = "mirror.example.com/cleanup"
)

type mirrorReconciler struct{ client client.Client }

func (r *mirrorReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var src corev1.ConfigMap
	if err := r.client.Get(ctx, req.NamespacedName, &src); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	target := src.Labels[mirrorTo]
	if target == "" {
		return reconcile.Result{}, nil
	}
	copyKey := client.ObjectKey{Namespace: target, Name: src.Name}
	if !src.DeletionTimestamp.IsZero() {
		if controllerutil.ContainsFinalizer(&src, finalizer) {
			err := r.client.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: target, Name: src.Name}})
			if err != nil && !apierrors.IsNotFound(err) {
				return reconcile.Result{}, err
			}
			controllerutil.RemoveFinalizer(&src, finalizer)
			return reconcile.Result{}, r.client.Update(ctx, &src)
		}
		return reconcile.Result{}, nil
	}
	if controllerutil.AddFinalizer(&src, finalizer) {
		if err := r.client.Update(ctx, &src); err != nil {
			return reconcile.Result{}, err
		}
	}
	cp := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: copyKey.Namespace, Name: copyKey.Name}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.client, cp, func() error {
		if cp.Labels == nil {
			cp.Labels = map[string]string{}
		}
		cp.Labels[mirrorFrom] = src.Namespace
		cp.Data = src.Data
		return nil
	})
	return reconcile.Result{}, err
}

// mirror: source created, copied; changed, copy changed; deleted, copy deleted and the
// finalizer released.
func mirror(ctx context.Context, env *Env) error {
	mgr, err := newManager(env, manager.Options{})
	if err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(&mirrorReconciler{client: mgr.GetClient()}); err != nil {
		return err
	}
	mctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()

	c := env.Client
	target := env.Namespace + "-copies"
	src := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: env.Namespace, Name: "mirrored", Labels: map[string]string{mirrorTo: target}},
		Data:       map[string]string{"k": "v1"},
	}
	if err := c.Create(ctx, src); err != nil {
		return err
	}
	copyKey := client.ObjectKey{Namespace: target, Name: "mirrored"}
	var cp corev1.ConfigMap
	if err := poll(ctx, "the copy", func() (bool, error) {
		err := c.Get(ctx, copyKey, &cp)
		return err == nil && cp.Data["k"] == "v1", err
	}); err != nil {
		return err
	}
	if err := poll(ctx, "the finalizer on the source", func() (bool, error) {
		err := c.Get(ctx, client.ObjectKeyFromObject(src), src)
		return err == nil && controllerutil.ContainsFinalizer(src, finalizer), err
	}); err != nil {
		return err
	}
	src.Data["k"] = "v2"
	if err := c.Update(ctx, src); err != nil {
		return err
	}
	if err := poll(ctx, "the copy updated", func() (bool, error) {
		err := c.Get(ctx, copyKey, &cp)
		return err == nil && cp.Data["k"] == "v2", err
	}); err != nil {
		return err
	}
	if err := c.Delete(ctx, src); err != nil {
		return err
	}
	if err := poll(ctx, "the copy and the source gone", func() (bool, error) {
		errCopy := c.Get(ctx, copyKey, &cp)
		errSrc := c.Get(ctx, client.ObjectKeyFromObject(src), &corev1.ConfigMap{})
		return apierrors.IsNotFound(errCopy) && apierrors.IsNotFound(errSrc), fmt.Errorf("copy: %v, source: %v", errCopy, errSrc)
	}); err != nil {
		return err
	}
	stop()
	return <-done
}
