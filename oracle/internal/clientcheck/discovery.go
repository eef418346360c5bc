package clientcheck

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/restmapper"
)

func discoveryChecks() []Check {
	return []Check{{Name: "aggregated discovery, memcache, deferred RESTMapper", Run: discoveryAndMapper}}
}

// discoveryAndMapper: client-go's discovery (which asks for the aggregated documents
// first), cached in memory, behind a deferred RESTMapper, as kubectl and
// controller-runtime use it.
func discoveryAndMapper(ctx context.Context, env *Env) error {
	dc, err := discovery.NewDiscoveryClientForConfig(env.Config)
	if err != nil {
		return err
	}
	cached := memory.NewMemCacheClient(dc)
	groups, resources, err := cached.ServerGroupsAndResources()
	if err != nil {
		return fmt.Errorf("groups and resources: %w", err)
	}
	if err := expect(len(groups) >= 15 && len(resources) >= 15, "%d groups, %d resource lists", len(groups), len(resources)); err != nil {
		return err
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(cached)
	mapping, err := mapper.RESTMapping(schema.GroupKind{Group: "apps", Kind: "Deployment"})
	if err != nil {
		return fmt.Errorf("mapping apps Deployment: %w", err)
	}
	if err := expect(mapping.Resource.Resource == "deployments" && mapping.Resource.Version == "v1" && mapping.Scope.Name() == meta.RESTScopeNameNamespace,
		"mapping: %+v %s", mapping.Resource, mapping.Scope.Name()); err != nil {
		return err
	}
	// kubectl's short names: the discovery's, through a shortcut expander.
	expander := restmapper.NewShortcutExpander(mapper, cached, nil)
	gvr, err := expander.ResourceFor(schema.GroupVersionResource{Resource: "deploy"})
	if err := expect(err == nil && gvr.Resource == "deployments", "short name deploy: %v %v", gvr, err); err != nil {
		return err
	}
	mapper.Reset()
	kinds, err := mapper.KindsFor(schema.GroupVersionResource{Resource: "cronjobs"})
	return expect(err == nil && len(kinds) >= 1 && kinds[0].Group == "batch", "cronjobs kinds: %v %v", kinds, err)
}
