//go:build k8s_1_37

package cases

import (
	"context"

	"k8s.io/apimachinery/pkg/api/operation"
	genericvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
)

// check is Check mode's validation on Kubernetes 1.37, where the strategies no longer
// run the declarative rules in their Validate: kube-apiserver's rest.ValidateCreate and
// rest.ValidateUpdate do, after the hand-written ones, for a strategy that is a
// rest.DeclarativeValidationStrategy. So: the strategy's Validate (ValidateUpdate
// against old), the generic ObjectMeta checks when that passes (as on 1.36), then the
// declarative rules merged in as rest.ValidateCreate merges them.
func check(ctx context.Context, s strategy, obj, oldObj runtime.Object, accessor metav1.Object) field.ErrorList {
	var errs field.ErrorList
	op := operation.Create
	if oldObj == nil {
		errs = s.Validate(ctx, obj)
	} else {
		op = operation.Update
		errs = s.ValidateUpdate(ctx, obj, oldObj)
	}
	if len(errs) == 0 {
		errs = genericvalidation.ValidateObjectMetaAccessor(accessor, s.NamespaceScoped(), validatePathSegment, field.NewPath("metadata"))
	}
	if dv, ok := s.(rest.DeclarativeValidationStrategy); ok {
		errs = dv.ValidateDeclaratively(ctx, obj, oldObj, errs, op, dv.DeclarativeValidationConfig(ctx, obj, oldObj))
	}
	return errs
}

// statusStrategyBase is what a status strategy wrapped to replace its ValidateUpdate
// (resourceClaimStatus) keeps of the strategy: on 1.37 also its declarative rules, which
// checkStatus runs after ValidateUpdate.
type statusStrategyBase interface {
	strategy
	rest.DeclarativeValidationStrategy
}

// checkStatus is Status mode's validation on Kubernetes 1.37: the status strategy's
// ValidateUpdate, then the declarative rules merged in as rest.ValidateUpdate merges them.
func checkStatus(ctx context.Context, s strategy, obj, oldObj runtime.Object) field.ErrorList {
	errs := s.ValidateUpdate(ctx, obj, oldObj)
	if dv, ok := s.(rest.DeclarativeValidationStrategy); ok {
		errs = dv.ValidateDeclaratively(ctx, obj, oldObj, errs, operation.Update, dv.DeclarativeValidationConfig(ctx, obj, oldObj))
	}
	return errs
}
