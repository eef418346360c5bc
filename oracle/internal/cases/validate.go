package cases

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/scheme"
)

// Cause is one field error of kube-apiserver's 422 answer, as its Status carries it.
type Cause struct {
	// Type: Go's field.ErrorType as the Status writes it (FieldValueInvalid, ...).
	Type string `json:"type"`
	// Field: the field path (spec.template.spec.containers[0].image).
	Field string `json:"field"`
	// Message: the error without its field (Invalid value: "x": must be ...).
	Message string `json:"message"`
}

// Validated is what kube-apiserver's strategy says of an object on create or update.
type Validated struct {
	// Validated: the kind has a strategy the oracle runs (false: nothing was checked).
	Validated bool `json:"validated"`
	// Code and Message: the Status kube-apiserver answers (0 and "" when accepted).
	Code    int32  `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	// Causes: its field errors, in Go's order.
	Causes []Cause `json:"causes"`
	// Error: the request could not be checked (decode failed, not an invalid object).
	Error string `json:"error,omitempty"`
}

// Mode says what is run on the object.
type Mode string

// The modes.
const (
	// Store: what kube-apiserver's REST storage runs before it stores the object:
	// rest.BeforeCreate with the resource's strategy (PrepareForCreate, Validate, then
	// the generic ObjectMeta checks), or rest.BeforeUpdate against old.
	Store Mode = "store"
	// Check: the object as given (defaulted), without the strategy's preparation: its
	// Validate (ValidateUpdate against old), then, when that passes, the generic
	// ObjectMeta checks, in BeforeCreate's order. What an offline check of a manifest
	// (`kapi validate`) reports.
	Check Mode = "check"
	// Status: a write of the /status subresource replacing old, judged by the kind's
	// status strategy as given (its ValidateUpdate, and on 1.37 the declarative rules),
	// without its preparation (which copies the spec from old). Kinds without a status
	// strategy here are not validated.
	Status Mode = "status"
)

// Validate decodes data as kube-apiserver reads a request body (defaulted, converted to
// the internal version) and runs the resource's strategy on it, as mode says.
func Validate(data, old []byte, mode Mode) (out *Validated) {
	defer func() {
		if r := recover(); r != nil {
			out = &Validated{Error: fmt.Sprintf("panic in Go's validation: %v", r)}
		}
	}()
	obj, gvk, err := decodeInternal(data)
	if err != nil {
		return &Validated{Error: "decode: " + err.Error()}
	}
	table := strategies
	if mode == Status {
		table = statusStrategies
	}
	rs, ok := table[gvk.GroupKind()]
	if !ok {
		return &Validated{}
	}
	accessor, err := apimeta.Accessor(obj)
	if err != nil {
		return &Validated{Error: err.Error()}
	}
	verb := "create"
	var oldObj runtime.Object
	if old != nil {
		verb = "update"
		if oldObj, _, err = decodeInternal(old); err != nil {
			return &Validated{Error: "decode old: " + err.Error()}
		}
	}
	ctx := genericapirequest.WithNamespace(context.Background(), accessor.GetNamespace())
	subresource := ""
	if mode == Status {
		if oldObj == nil {
			return &Validated{Error: "a /status write needs the old object"}
		}
		subresource = "status"
	}
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true,
		Verb:              verb,
		APIGroup:          gvk.Group,
		APIVersion:        gvk.Version,
		Namespace:         accessor.GetNamespace(),
		Resource:          rs.resource,
		Subresource:       subresource,
		Name:              accessor.GetName(),
	})
	switch {
	case mode == Status:
		if errs := checkStatus(ctx, rs.strategy, obj, oldObj); len(errs) > 0 {
			err = apierrors.NewInvalid(gvk.GroupKind(), accessor.GetName(), errs)
		}
	case mode == Check:
		if errs := check(ctx, rs.strategy, obj, oldObj, accessor); len(errs) > 0 {
			err = apierrors.NewInvalid(gvk.GroupKind(), accessor.GetName(), errs)
		}
	case oldObj == nil:
		// What the store fills in before BeforeCreate (rest.FillObjectMetaSystemFields).
		fillSystemFields(accessor)
		err = rest.BeforeCreate(rs.strategy, ctx, obj)
	default:
		oldAccessor, aerr := apimeta.Accessor(oldObj)
		if aerr != nil {
			return &Validated{Error: aerr.Error()}
		}
		fillSystemFields(oldAccessor)
		accessor.SetUID(oldAccessor.GetUID())
		accessor.SetCreationTimestamp(oldAccessor.GetCreationTimestamp())
		err = rest.BeforeUpdate(rs.strategy, ctx, obj, oldObj)
	}
	result := &Validated{Validated: true, Causes: []Cause{}}
	if err == nil {
		return result
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		result.Error = err.Error()
		return result
	}
	s := status.Status()
	result.Code, result.Message = s.Code, s.Message
	if s.Details != nil {
		for _, c := range s.Details.Causes {
			result.Causes = append(result.Causes, Cause{Type: string(c.Type), Field: c.Field, Message: c.Message})
		}
	}
	return result
}

// validatePathSegment is kube-apiserver's name check for every resource
// (k8s.io/apiserver/pkg/registry/rest's unexported function of that name).
func validatePathSegment(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

// GeneratedNameSuffix is what the oracle appends to generateName where kube-apiserver
// would append five random characters.
const GeneratedNameSuffix = "x5q7z"

// decodeInternal reads a JSON request body as kube-apiserver does: defaulted, then
// converted to the internal version; gvk is the kind the body named.
func decodeInternal(data []byte) (runtime.Object, *schema.GroupVersionKind, error) {
	decoder := scheme.Codecs.DecoderToVersion(jsonSerializer, runtime.InternalGroupVersioner)
	return decoder.Decode(data, nil, nil)
}

// fillSystemFields does what kube-apiserver's store does before it validates: system
// fields set, and a generated name (here a fixed suffix, so both sides agree).
func fillSystemFields(meta metav1.Object) {
	if meta.GetName() == "" && meta.GetGenerateName() != "" {
		meta.SetName(meta.GetGenerateName() + GeneratedNameSuffix)
	}
	if meta.GetUID() == "" {
		meta.SetUID(types.UID("4f2d6c2e-oracle-uid"))
	}
	if ts := meta.GetCreationTimestamp(); ts.IsZero() {
		meta.SetCreationTimestamp(metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
	}
}
