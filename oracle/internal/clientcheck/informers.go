package clientcheck

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

func informerChecks() []Check {
	return []Check{{Name: "shared informers, an indexer, a work queue controller", Run: informersAndQueue}}
}

// informersAndQueue: a SharedInformerFactory with ConfigMap and Secret informers, an
// index of ConfigMaps by a label, a resync period, and a controller loop that copies each
// ConfigMap into a Secret through a rate-limited work queue.
func informersAndQueue(ctx context.Context, env *Env) error {
	c := env.Protobuf
	ns := env.Namespace
	factory := informers.NewSharedInformerFactoryWithOptions(c, 2*time.Second, informers.WithNamespace(ns))
	cmInformer := factory.Core().V1().ConfigMaps().Informer()
	if err := cmInformer.AddIndexers(cache.Indexers{"byTeam": func(obj interface{}) ([]string, error) {
		cm, ok := obj.(*corev1.ConfigMap)
		if !ok {
			return nil, nil
		}
		return []string{cm.Labels["team"]}, nil
	}}); err != nil {
		return err
	}
	secrets := factory.Core().V1().Secrets().Lister()
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	defer queue.ShutDown()
	var resyncs int
	var mu sync.Mutex
	_, err := cmInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				queue.Add(key)
			}
		},
		UpdateFunc: func(old, obj interface{}) {
			if old.(*corev1.ConfigMap).ResourceVersion == obj.(*corev1.ConfigMap).ResourceVersion {
				mu.Lock()
				resyncs++
				mu.Unlock()
			}
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				queue.Add(key)
			}
		},
	})
	if err != nil {
		return err
	}
	stop := make(chan struct{})
	defer close(stop)
	factory.Start(stop)
	for typ, synced := range factory.WaitForCacheSync(stop) {
		if !synced {
			return fmt.Errorf("%v did not sync", typ)
		}
	}
	// The controller: each ConfigMap's data copied into a Secret of the same name.
	go func() {
		for {
			key, shutdown := queue.Get()
			if shutdown {
				return
			}
			func() {
				defer queue.Done(key)
				_, name, _ := cache.SplitMetaNamespaceKey(key)
				obj, exists, err := cmInformer.GetIndexer().GetByKey(key)
				if err != nil || !exists {
					queue.Forget(key)
					return
				}
				cm := obj.(*corev1.ConfigMap)
				secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name}, StringData: cm.Data}
				if _, err := c.CoreV1().Secrets(ns).Create(ctx, secret, metav1.CreateOptions{}); err != nil {
					if _, err := c.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{}); err != nil {
						queue.AddRateLimited(key)
						return
					}
				}
				queue.Forget(key)
			}()
		}
	}()
	for i, team := range []string{"red", "blue", "red"} {
		_, err := c.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("informed-%d", i), Labels: map[string]string{"team": team}},
			Data:       map[string]string{"i": fmt.Sprint(i)},
		}, metav1.CreateOptions{})
		if err != nil {
			return err
		}
	}
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 20*time.Second, true, func(context.Context) (bool, error) {
		red, err := cmInformer.GetIndexer().ByIndex("byTeam", "red")
		if err != nil || len(red) != 2 {
			return false, nil
		}
		for i := 0; i < 3; i++ {
			s, err := secrets.Secrets(ns).Get(fmt.Sprintf("informed-%d", i))
			if err != nil || string(s.Data["i"]) != fmt.Sprint(i) {
				return false, nil
			}
		}
		mu.Lock()
		defer mu.Unlock()
		return resyncs > 0, nil
	})
	if err != nil {
		red, _ := cmInformer.GetIndexer().ByIndex("byTeam", "red")
		var names []string
		for _, s := range factory.Core().V1().Secrets().Informer().GetStore().List() {
			names = append(names, s.(*corev1.Secret).Name)
		}
		sort.Strings(names)
		mu.Lock()
		defer mu.Unlock()
		return fmt.Errorf("the controller did not converge: %d red ConfigMaps indexed, secrets %v, %d resyncs", len(red), names, resyncs)
	}
	return nil
}
