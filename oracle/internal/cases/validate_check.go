//go:build !k8s_1_37

package cases

import (
	"context"

	genericvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// check is Check mode's validation on Kubernetes 1.36: the strategy's Validate
// (ValidateUpdate against old), which runs the declarative rules itself where the kind
// has them, then, when that passes, the generic ObjectMeta checks.
func check(ctx context.Context, s strategy, obj, oldObj runtime.Object, accessor metav1.Object) field.ErrorList {
	var errs field.ErrorList
	if oldObj == nil {
		errs = s.Validate(ctx, obj)
	} else {
		errs = s.ValidateUpdate(ctx, obj, oldObj)
	}
	if len(errs) == 0 {
		errs = genericvalidation.ValidateObjectMetaAccessor(accessor, s.NamespaceScoped(), validatePathSegment, field.NewPath("metadata"))
	}
	return errs
}

// statusStrategyBase is what a status strategy wrapped to replace its ValidateUpdate
// (resourceClaimStatus) keeps of the strategy: on 1.36 the strategy's own methods, since
// its ValidateUpdate runs the declarative rules itself.
type statusStrategyBase = strategy

// checkStatus is Status mode's validation on Kubernetes 1.36: the status strategy's
// ValidateUpdate, which runs the declarative rules itself where the kind has them.
func checkStatus(ctx context.Context, s strategy, obj, oldObj runtime.Object) field.ErrorList {
	return s.ValidateUpdate(ctx, obj, oldObj)
}
