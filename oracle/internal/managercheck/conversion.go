package managercheck

import (
	"context"
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
)

const widgetGroup = "check.example.com"

// widget is the custom resource in both its versions: `spec.size` in v1,
// `spec.replicas` in v2.
type widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              map[string]int64 `json:"spec,omitempty"`
}

func (w *widget) DeepCopyObject() runtime.Object {
	out := &widget{TypeMeta: w.TypeMeta, Spec: map[string]int64{}}
	w.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	for k, v := range w.Spec {
		out.Spec[k] = v
	}
	return out
}

// widgetConverter renames spec.size (v1) to spec.replicas (v2) and back.
type widgetConverter struct{}

func (widgetConverter) ConvertObject(_ context.Context, src, dst runtime.Object) error {
	in, out := src.(*widget), dst.(*widget)
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec = map[string]int64{}
	switch out.APIVersion {
	case widgetGroup + "/v2":
		out.Spec["replicas"] = in.Spec["size"]
	default:
		out.Spec["size"] = in.Spec["replicas"]
	}
	return nil
}

func widgetCRD(url string, ca []byte) *apiextensionsv1.CustomResourceDefinition {
	schemaOf := func(field string) *apiextensionsv1.CustomResourceValidation {
		return &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
			Type: "object",
			Properties: map[string]apiextensionsv1.JSONSchemaProps{
				"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{field: {Type: "integer"}}},
			},
		}}
	}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets." + widgetGroup},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: widgetGroup,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1", Served: true, Storage: true, Schema: schemaOf("size")},
				{Name: "v2", Served: true, Storage: false, Schema: schemaOf("replicas")},
			},
			Conversion: &apiextensionsv1.CustomResourceConversion{
				Strategy: apiextensionsv1.WebhookConverter,
				Webhook: &apiextensionsv1.WebhookConversion{
					ClientConfig:             &apiextensionsv1.WebhookClientConfig{URL: &url, CABundle: ca},
					ConversionReviewVersions: []string{"v1"},
				},
			},
		},
	}
}

// conversionWebhook: a v1 Widget read as v2 through the manager's conversion webhook.
func conversionWebhook(ctx context.Context, env *Env) error {
	scheme := runtime.NewScheme()
	for _, v := range []string{"v1", "v2"} {
		gv := schema.GroupVersion{Group: widgetGroup, Version: v}
		scheme.AddKnownTypeWithName(gv.WithKind("Widget"), &widget{})
	}
	registry := conversion.NewRegistry()
	if err := registry.RegisterConverter(schema.GroupKind{Group: widgetGroup, Kind: "Widget"}, widgetConverter{}); err != nil {
		return err
	}
	mgr, base, ca, err := webhookManager(env, func(s webhook.Server) error {
		s.Register("/convert", conversion.NewWebhookHandler(scheme, registry))
		return nil
	})
	if err != nil {
		return err
	}
	mctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()

	crd := widgetCRD(base+"/convert", ca)
	if err := env.Client.Create(ctx, crd); err != nil {
		return err
	}
	defer env.Client.Delete(context.Background(), crd)
	if err := poll(ctx, "the CRD established", func() (bool, error) {
		var got apiextensionsv1.CustomResourceDefinition
		if err := env.Client.Get(ctx, client.ObjectKeyFromObject(crd), &got); err != nil {
			return false, err
		}
		for _, c := range got.Status.Conditions {
			if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	}); err != nil {
		return err
	}
	w := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": widgetGroup + "/v1", "kind": "Widget",
		"metadata": map[string]interface{}{"name": "w", "namespace": env.Namespace},
		"spec":     map[string]interface{}{"size": int64(3)},
	}}
	if err := poll(ctx, "a v1 Widget created", func() (bool, error) {
		err := env.Client.Create(ctx, w.DeepCopy())
		return err == nil, err
	}); err != nil {
		return err
	}
	v2 := &unstructured.Unstructured{}
	v2.SetAPIVersion(widgetGroup + "/v2")
	v2.SetKind("Widget")
	if err := env.Client.Get(ctx, client.ObjectKey{Namespace: env.Namespace, Name: "w"}, v2); err != nil {
		return fmt.Errorf("get as v2: %w", err)
	}
	replicas, found, _ := unstructured.NestedInt64(v2.Object, "spec", "replicas")
	if !found || replicas != 3 {
		return fmt.Errorf("the Widget as v2: %v", v2.Object["spec"])
	}
	stop()
	return <-done
}
