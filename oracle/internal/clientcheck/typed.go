package clientcheck

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

func typedChecks() []Check {
	var out []Check
	for _, ct := range []string{"json", "protobuf"} {
		ct := ct
		client := func(env *Env) kubernetes.Interface {
			if ct == "json" {
				return env.JSON
			}
			return env.Protobuf
		}
		out = append(out,
			Check{Name: "typed CRUD (" + ct + ")", Run: func(ctx context.Context, env *Env) error { return typedCRUD(ctx, client(env), env.Namespace, ct) }},
			Check{Name: "typed errors (" + ct + ")", Run: func(ctx context.Context, env *Env) error { return typedErrors(ctx, client(env), env.Namespace, ct) }},
			Check{Name: "list paging (" + ct + ")", Run: func(ctx context.Context, env *Env) error { return listPaging(ctx, client(env), env.Namespace, ct) }},
		)
	}
	return out
}

// typedCRUD creates, reads, updates, patches three ways and deletes a ConfigMap.
func typedCRUD(ctx context.Context, c kubernetes.Interface, ns, ct string) error {
	cms := c.CoreV1().ConfigMaps(ns)
	name := "crud-" + ct
	created, err := cms.Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "crud"}},
		Data:       map[string]string{"a": "1"},
	}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	if err := expect(created.UID != "" && created.ResourceVersion != "" && !created.CreationTimestamp.IsZero(), "create: system fields not set: %+v", created.ObjectMeta); err != nil {
		return err
	}
	got, err := cms.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("get: %w", err)
	}
	if err := expect(got.Data["a"] == "1" && got.ResourceVersion == created.ResourceVersion, "get: %+v", got); err != nil {
		return err
	}
	got.Data["a"] = "2"
	updated, err := cms.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("update: %w", err)
	}
	if err := expect(updated.Data["a"] == "2" && updated.ResourceVersion != got.ResourceVersion, "update: %+v", updated); err != nil {
		return err
	}
	patches := []struct {
		pt   types.PatchType
		body string
		key  string
	}{
		{types.MergePatchType, `{"data":{"b":"merge"}}`, "b"},
		{types.StrategicMergePatchType, `{"data":{"c":"strategic"}}`, "c"},
		{types.JSONPatchType, `[{"op":"add","path":"/data/d","value":"json"}]`, "d"},
	}
	for _, p := range patches {
		patched, err := cms.Patch(ctx, name, p.pt, []byte(p.body), metav1.PatchOptions{})
		if err != nil {
			return fmt.Errorf("%s patch: %w", p.pt, err)
		}
		if err := expect(patched.Data[p.key] != "", "%s patch: %v", p.pt, patched.Data); err != nil {
			return err
		}
	}
	if err := cms.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	_, err = cms.Get(ctx, name, metav1.GetOptions{})
	return expect(apierrors.IsNotFound(err), "get after delete: want NotFound, got %v", err)
}

// typedErrors: client-go's errors package reads the server's Status answers.
func typedErrors(ctx context.Context, c kubernetes.Interface, ns, ct string) error {
	cms := c.CoreV1().ConfigMaps(ns)
	name := "errors-" + ct
	if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		return err
	}
	_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err := expect(apierrors.IsAlreadyExists(err), "second create: want AlreadyExists, got %v", err); err != nil {
		return err
	}
	stale := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: "1"}}
	_, err = cms.Update(ctx, stale, metav1.UpdateOptions{})
	if err := expect(apierrors.IsConflict(err), "stale update: want Conflict, got %v", err); err != nil {
		return err
	}
	_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "Not_A_Name"}}, metav1.CreateOptions{})
	if err := expect(apierrors.IsInvalid(err), "bad name: want Invalid, got %v", err); err != nil {
		return err
	}
	_, err = cms.Get(ctx, "missing", metav1.GetOptions{})
	return expect(apierrors.IsNotFound(err), "get missing: want NotFound, got %v", err)
}

// listPaging lists five ConfigMaps two at a time.
func listPaging(ctx context.Context, c kubernetes.Interface, ns, ct string) error {
	cms := c.CoreV1().ConfigMaps(ns)
	selector := "paging=" + ct
	for i := 0; i < 5; i++ {
		_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("page-%s-%d", ct, i), Labels: map[string]string{"paging": ct},
		}}, metav1.CreateOptions{})
		if err != nil {
			return err
		}
	}
	var names []string
	opts := metav1.ListOptions{LabelSelector: selector, Limit: 2}
	pages := 0
	for {
		list, err := cms.List(ctx, opts)
		if err != nil {
			return fmt.Errorf("page %d: %w", pages, err)
		}
		pages++
		for _, item := range list.Items {
			names = append(names, item.Name)
		}
		if list.Continue == "" {
			break
		}
		// kube-apiserver counts the remaining items only for a list without selectors.
		if err := expect(list.RemainingItemCount == nil, "page %d: remainingItemCount %v with a label selector", pages, list.RemainingItemCount); err != nil {
			return err
		}
		opts.Continue = list.Continue
	}
	return expect(pages == 3 && len(names) == 5, "paging: %d pages, names %v", pages, names)
}
