package managercheck

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// webhookManager is a manager whose webhook server listens on a free port of the host
// with a certificate of its own; it returns the base URL and the CA bundle.
func webhookManager(env *Env, register func(webhook.Server) error) (manager.Manager, string, []byte, error) {
	dir, err := os.MkdirTemp("", "manager-check-")
	if err != nil {
		return nil, "", nil, err
	}
	ca, err := servingCert(dir)
	if err != nil {
		return nil, "", nil, err
	}
	l, err := net.Listen("tcp", net.JoinHostPort(env.Host, "0"))
	if err != nil {
		return nil, "", nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	server := webhook.NewServer(webhook.Options{Host: env.Host, Port: port, CertDir: dir})
	mgr, err := newManager(env, manager.Options{WebhookServer: server})
	if err != nil {
		return nil, "", nil, err
	}
	// The manager runs its webhook server only once asked for it (GetWebhookServer adds
	// it to the runnables), as a Go operator's webhook setup does.
	if err := register(mgr.GetWebhookServer()); err != nil {
		return nil, "", nil, err
	}
	return mgr, "https://" + net.JoinHostPort(env.Host, strconv.Itoa(port)), ca, nil
}

// admissionWebhooks: the manager serves a mutating webhook that labels ConfigMaps and a
// validating one that refuses a data key; the server calls both.
func admissionWebhooks(ctx context.Context, env *Env) error {
	mutate := admission.HandlerFunc(func(ctx context.Context, req admission.Request) admission.Response {
		var cm corev1.ConfigMap
		if err := json.Unmarshal(req.Object.Raw, &cm); err != nil {
			return admission.Errored(http.StatusBadRequest, err)
		}
		if cm.Labels == nil {
			cm.Labels = map[string]string{}
		}
		cm.Labels["mutated-by"] = "manager-check"
		out, err := json.Marshal(&cm)
		if err != nil {
			return admission.Errored(http.StatusInternalServerError, err)
		}
		return admission.PatchResponseFromRaw(req.Object.Raw, out)
	})
	validate := admission.HandlerFunc(func(ctx context.Context, req admission.Request) admission.Response {
		var cm corev1.ConfigMap
		if err := json.Unmarshal(req.Object.Raw, &cm); err != nil {
			return admission.Errored(http.StatusBadRequest, err)
		}
		if _, ok := cm.Data["forbidden"]; ok {
			return admission.Denied("the key forbidden is not allowed")
		}
		return admission.Allowed("")
	})
	mgr, base, ca, err := webhookManager(env, func(s webhook.Server) error {
		s.Register("/mutate", &webhook.Admission{Handler: mutate})
		s.Register("/validate", &webhook.Admission{Handler: validate})
		return nil
	})
	if err != nil {
		return err
	}
	mctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()

	none := admissionregistrationv1.SideEffectClassNone
	fail := admissionregistrationv1.Fail
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": env.Namespace}}
	rules := []admissionregistrationv1.RuleWithOperations{{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
		Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}},
	}}
	url := func(path string) *string { u := base + path; return &u }
	mutating := &admissionregistrationv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "manager-check-" + env.Namespace},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{
			Name: "mutate.check.example.com", ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: url("/mutate"), CABundle: ca},
			Rules: rules, NamespaceSelector: selector, SideEffects: &none, FailurePolicy: &fail,
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
	validating := &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "manager-check-" + env.Namespace},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name: "validate.check.example.com", ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: url("/validate"), CABundle: ca},
			Rules: rules, NamespaceSelector: selector, SideEffects: &none, FailurePolicy: &fail,
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
	if err := env.Client.Create(ctx, mutating); err != nil {
		return err
	}
	defer env.Client.Delete(context.Background(), mutating)
	if err := env.Client.Create(ctx, validating); err != nil {
		return err
	}
	defer env.Client.Delete(context.Background(), validating)
	// Webhook configurations take effect once the server has read them.
	if err := poll(ctx, "a ConfigMap labelled by the mutating webhook", func() (bool, error) {
		cm := corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: env.Namespace, GenerateName: "hooked-"}}
		if err := env.Client.Create(ctx, &cm); err != nil {
			return false, err
		}
		return cm.Labels["mutated-by"] == "manager-check", fmt.Errorf("labels %v", cm.Labels)
	}); err != nil {
		return err
	}
	refused := corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: env.Namespace, Name: "refused"}, Data: map[string]string{"forbidden": "x"}}
	err = env.Client.Create(ctx, &refused)
	want := `admission webhook "validate.check.example.com" denied the request: the key forbidden is not allowed`
	if err == nil || !strings.Contains(err.Error(), want) {
		return fmt.Errorf("the validating webhook's refusal: want %q, got %v", want, err)
	}
	stop()
	return <-done
}
