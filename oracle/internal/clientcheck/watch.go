package clientcheck

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
)

func watchChecks() []Check {
	return []Check{
		{Name: "watch from a list's resourceVersion (protobuf)", Run: func(ctx context.Context, env *Env) error {
			return watchSequence(ctx, env.Protobuf, env.Namespace, "protobuf")
		}},
		{Name: "watch from a list's resourceVersion (json)", Run: func(ctx context.Context, env *Env) error { return watchSequence(ctx, env.JSON, env.Namespace, "json") }},
		{Name: "watch bookmarks", Run: watchBookmarks},
	}
}

// watchSequence: added, modified and deleted, in that order, for a selector, from the
// list's resourceVersion.
func watchSequence(ctx context.Context, c kubernetes.Interface, ns, ct string) error {
	cms := c.CoreV1().ConfigMaps(ns)
	selector := "watched=" + ct
	list, err := cms.List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return err
	}
	w, err := cms.Watch(ctx, metav1.ListOptions{LabelSelector: selector, ResourceVersion: list.ResourceVersion})
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer w.Stop()
	name := "watched-" + ct
	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"watched": ct}}}, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	cm.Data = map[string]string{"x": "1"}
	if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		return err
	}
	if err := cms.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		return err
	}
	want := []watch.EventType{watch.Added, watch.Modified, watch.Deleted}
	var rvs []string
	for i, t := range want {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("event %d: the watch ended", i)
			}
			obj, isCM := ev.Object.(*corev1.ConfigMap)
			if ev.Type != t || !isCM || obj.Name != name {
				return fmt.Errorf("event %d: want %s of %s, got %s %T", i, t, name, ev.Type, ev.Object)
			}
			rvs = append(rvs, obj.ResourceVersion)
		case <-time.After(10 * time.Second):
			return fmt.Errorf("event %d (%s): none within 10 s", i, t)
		}
	}
	return expect(rvs[0] != rvs[1] && rvs[1] != rvs[2], "resourceVersions not advancing: %v", rvs)
}

// watchBookmarks: with allowWatchBookmarks, a bookmark arrives (kube-apiserver sends one
// about every minute, and one at the end of a watch's initial events).
func watchBookmarks(ctx context.Context, env *Env) error {
	cms := env.JSON.CoreV1().ConfigMaps(env.Namespace)
	sendInitial := true
	w, err := cms.Watch(ctx, metav1.ListOptions{
		AllowWatchBookmarks:  true,
		SendInitialEvents:    &sendInitial,
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
	})
	if err != nil {
		return fmt.Errorf("watch with sendInitialEvents: %w", err)
	}
	defer w.Stop()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("the watch ended before a bookmark")
			}
			// kube-apiserver on an etcd without progress notifications (3.4) cannot serve
			// a watch that sends its initial events, and says so.
			if status, isStatus := ev.Object.(*metav1.Status); ev.Type == watch.Error && isStatus &&
				strings.Contains(status.Message, "RequestWatchProgress is disabled") {
				return nil
			}
			if ev.Type == watch.Bookmark {
				obj, _ := ev.Object.(*corev1.ConfigMap)
				if obj == nil {
					return fmt.Errorf("a bookmark of %T", ev.Object)
				}
				return expect(obj.Annotations[metav1.InitialEventsAnnotationKey] == "true",
					"the bookmark ending the initial events lacks %s: %v", metav1.InitialEventsAnnotationKey, obj.Annotations)
			}
		case <-deadline:
			return fmt.Errorf("no bookmark within 15 s")
		}
	}
}
