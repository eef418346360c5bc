package clientcheck

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
)

var deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

func dynamicChecks() []Check {
	return []Check{
		{Name: "dynamic client", Run: dynamicClient},
		{Name: "metadata client", Run: metadataClient},
	}
}

func deploymentObject(name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]interface{}{"name": name, "labels": map[string]interface{}{"via": "dynamic"}},
		"spec": map[string]interface{}{
			"selector": map[string]interface{}{"matchLabels": map[string]interface{}{"app": name}},
			"template": map[string]interface{}{
				"metadata": map[string]interface{}{"labels": map[string]interface{}{"app": name}},
				"spec": map[string]interface{}{"containers": []interface{}{
					map[string]interface{}{"name": "c", "image": "nginx"},
				}},
			},
		},
	}}
}

// dynamicClient: a Deployment created, read (defaulted by the server), listed and
// deleted as unstructured objects.
func dynamicClient(ctx context.Context, env *Env) error {
	d, err := dynamic.NewForConfig(env.Config)
	if err != nil {
		return err
	}
	res := d.Resource(deployments).Namespace(env.Namespace)
	created, err := res.Create(ctx, deploymentObject("dyn"), metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	replicas, found, err := unstructured.NestedInt64(created.Object, "spec", "replicas")
	if err := expect(err == nil && found && replicas == 1, "defaulted replicas: %v %v %v", replicas, found, err); err != nil {
		return err
	}
	strategy, _, _ := unstructured.NestedString(created.Object, "spec", "strategy", "type")
	if err := expect(strategy == "RollingUpdate", "defaulted strategy: %q", strategy); err != nil {
		return err
	}
	list, err := res.List(ctx, metav1.ListOptions{LabelSelector: "via=dynamic"})
	if err != nil {
		return fmt.Errorf("list: %w", err)
	}
	if err := expect(len(list.Items) == 1 && list.GetKind() == "DeploymentList", "list: kind %q, %d items", list.GetKind(), len(list.Items)); err != nil {
		return err
	}
	return res.Delete(ctx, "dyn", metav1.DeleteOptions{})
}

// metadataClient: the same resource's objects as PartialObjectMetadata (asked in
// protobuf, as client-go's metadata client does).
func metadataClient(ctx context.Context, env *Env) error {
	d, err := dynamic.NewForConfig(env.Config)
	if err != nil {
		return err
	}
	if _, err := d.Resource(deployments).Namespace(env.Namespace).Create(ctx, deploymentObject("meta"), metav1.CreateOptions{}); err != nil {
		return err
	}
	m, err := metadata.NewForConfig(env.Config)
	if err != nil {
		return err
	}
	list, err := m.Resource(deployments).Namespace(env.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("list: %w", err)
	}
	if err := expect(len(list.Items) >= 1 && list.Items[0].Name != "" && list.Items[0].UID != "", "metadata list: %+v", list.Items); err != nil {
		return err
	}
	one, err := m.Resource(deployments).Namespace(env.Namespace).Get(ctx, "meta", metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("get: %w", err)
	}
	return expect(one.Name == "meta" && one.Namespace == env.Namespace && one.UID != "" && len(one.Labels) == 1,
		"metadata get: %+v", one.ObjectMeta)
}
