package cases

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/resource"
	resourcevalidation "k8s.io/kubernetes/pkg/apis/resource/validation"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
)

// resourceClaimStatus is kube-apiserver's ResourceClaim status strategy judging a write
// of the subresource by its validation alone: its ValidateUpdate first asks whether the
// request's user may bind claims, write device status or grant admin access (the
// namespace's label), which needs the request's user, an authorizer and the namespace;
// those are the server's, compared by the server differential, not by a validator of
// one object. What is left is ValidateResourceClaimStatusUpdate, and on 1.37 the
// declarative rules the embedded strategy brings.
type resourceClaimStatus struct{ statusStrategyBase }

func (resourceClaimStatus) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	return resourcevalidation.ValidateResourceClaimStatusUpdate(obj.(*resource.ResourceClaim), old.(*resource.ResourceClaim))
}

func newResourceClaimStatus() strategy {
	return resourceClaimStatus{resourceclaim.NewStatusStrategy(resourceclaim.NewStrategy(nil, nil))}
}
