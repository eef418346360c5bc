package clientcheck

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1apply "k8s.io/client-go/applyconfigurations/core/v1"
)

func applyChecks() []Check {
	return []Check{{Name: "server-side apply with apply configurations", Run: serverSideApply}}
}

// serverSideApply: kubectl's server-side apply through client-go's typed apply
// configurations: create by apply, a conflict with another manager, force, managedFields.
func serverSideApply(ctx context.Context, env *Env) error {
	cms := env.Protobuf.CoreV1().ConfigMaps(env.Namespace)
	cfg := corev1apply.ConfigMap("applied", env.Namespace).WithData(map[string]string{"owner": "a"})
	created, err := cms.Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: "manager-a"})
	if err != nil {
		return fmt.Errorf("apply by manager-a: %w", err)
	}
	if err := expect(len(created.ManagedFields) == 1 && created.ManagedFields[0].Manager == "manager-a" &&
		created.ManagedFields[0].Operation == metav1.ManagedFieldsOperationApply,
		"managedFields after apply: %+v", created.ManagedFields); err != nil {
		return err
	}
	other := corev1apply.ConfigMap("applied", env.Namespace).WithData(map[string]string{"owner": "b"})
	_, err = cms.Apply(ctx, other, metav1.ApplyOptions{FieldManager: "manager-b"})
	if err := expect(apierrors.IsConflict(err), "apply of another value by manager-b: want Conflict, got %v", err); err != nil {
		return err
	}
	forced, err := cms.Apply(ctx, other, metav1.ApplyOptions{FieldManager: "manager-b", Force: true})
	if err != nil {
		return fmt.Errorf("forced apply: %w", err)
	}
	if err := expect(forced.Data["owner"] == "b", "forced apply: %v", forced.Data); err != nil {
		return err
	}
	extracted, err := corev1apply.ExtractConfigMap(forced, "manager-b")
	if err != nil {
		return fmt.Errorf("extract: %w", err)
	}
	return expect(extracted.Data["owner"] == "b", "extracted for manager-b: %+v", extracted.Data)
}
