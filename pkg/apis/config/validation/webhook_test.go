package validation

import (
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/utils/ptr"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	"github.com/mco-org/mco/pkg/testing/fielderr"
)

func validHook() configv1alpha1.ResourceInterpreterWebhook {
	return configv1alpha1.ResourceInterpreterWebhook{
		Name:         "workloads.example.com",
		ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: ptr.To("https://127.0.0.1:8443/interpret")},
		Rules: []configv1alpha1.RuleWithOperations{{
			Operations: []configv1alpha1.InterpreterOperation{configv1alpha1.InterpreterOperationInterpretReplica},
			Rule:       configv1alpha1.Rule{APIGroups: []string{"example.io"}, APIVersions: []string{"v1"}, Kinds: []string{"Workload"}},
		}},
		InterpreterContextVersions: []string{"v1alpha1"},
	}
}

func TestValidateResourceInterpreterWebhookConfiguration(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		change func(*configv1alpha1.ResourceInterpreterWebhookConfiguration)
		want   []fielderr.Want
	}{
		{name: "A URL webhook without caBundle is valid (system roots)."},
		{name: "The core group is \"\".", change: func(c *configv1alpha1.ResourceInterpreterWebhookConfiguration) {
			c.Webhooks[0].Rules[0].APIGroups = []string{""}
		}},
		{name: "A service webhook is accepted.", change: func(c *configv1alpha1.ResourceInterpreterWebhookConfiguration) {
			c.Webhooks[0].ClientConfig = admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{Namespace: "ns", Name: "svc"}}
		}},
		{name: "Names are fully qualified and unique.", change: func(c *configv1alpha1.ResourceInterpreterWebhookConfiguration) {
			c.Webhooks[0].Name = "short"
			c.Webhooks = append(c.Webhooks, c.Webhooks[0])
		}, want: []fielderr.Want{fielderr.Invalid("webhooks[0].name"), fielderr.Invalid("webhooks[1].name"), fielderr.Duplicate("webhooks[1].name")}},
		{name: "A URL must be https.", change: func(c *configv1alpha1.ResourceInterpreterWebhookConfiguration) {
			c.Webhooks[0].ClientConfig.URL = ptr.To("http://127.0.0.1/")
		}, want: []fielderr.Want{fielderr.Invalid("webhooks[0].clientConfig.url")}},
		{name: "Neither URL nor service.", change: func(c *configv1alpha1.ResourceInterpreterWebhookConfiguration) {
			c.Webhooks[0].ClientConfig.URL = nil
		}, want: []fielderr.Want{fielderr.Required("webhooks[0].clientConfig")}},
		{name: "Both URL and service.", change: func(c *configv1alpha1.ResourceInterpreterWebhookConfiguration) {
			c.Webhooks[0].ClientConfig.Service = &admissionregistrationv1.ServiceReference{Namespace: "ns", Name: "svc"}
		}, want: []fielderr.Want{fielderr.Forbidden("webhooks[0].clientConfig")}},
		{name: "A caBundle must hold a certificate.", change: func(c *configv1alpha1.ResourceInterpreterWebhookConfiguration) {
			c.Webhooks[0].ClientConfig.CABundle = []byte("not pem")
		}, want: []fielderr.Want{fielderr.Invalid("webhooks[0].clientConfig.caBundle")}},
		{name: "Rules: known operations, \"*\" alone, lists not empty.", change: func(c *configv1alpha1.ResourceInterpreterWebhookConfiguration) {
			r := &c.Webhooks[0].Rules[0]
			r.Operations = []configv1alpha1.InterpreterOperation{"*", "Explode"}
			r.Kinds = nil
			r.APIVersions = []string{""}
		}, want: []fielderr.Want{fielderr.NotSupported("webhooks[0].rules[0].operations[1]"), fielderr.Invalid("webhooks[0].rules[0].operations"),
			fielderr.Required("webhooks[0].rules[0].kinds"), fielderr.Required("webhooks[0].rules[0].apiVersions[0]")}},
		{name: "The timeout is 1 to 30 seconds.", change: func(c *configv1alpha1.ResourceInterpreterWebhookConfiguration) {
			c.Webhooks[0].TimeoutSeconds = ptr.To[int32](31)
		}, want: []fielderr.Want{fielderr.Invalid("webhooks[0].timeoutSeconds")}},
		{name: "The context versions must include v1alpha1.", change: func(c *configv1alpha1.ResourceInterpreterWebhookConfiguration) {
			c.Webhooks[0].InterpreterContextVersions = []string{"v2"}
		}, want: []fielderr.Want{fielderr.Invalid("webhooks[0].interpreterContextVersions")}},
		{name: "Context versions are required.", change: func(c *configv1alpha1.ResourceInterpreterWebhookConfiguration) {
			c.Webhooks[0].InterpreterContextVersions = nil
		}, want: []fielderr.Want{fielderr.Required("webhooks[0].interpreterContextVersions")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := &configv1alpha1.ResourceInterpreterWebhookConfiguration{Webhooks: []configv1alpha1.ResourceInterpreterWebhook{validHook()}}
			if tc.change != nil {
				tc.change(c)
			}
			fielderr.Assert(t, ValidateResourceInterpreterWebhookConfiguration(c), tc.want...)
		})
	}
}
