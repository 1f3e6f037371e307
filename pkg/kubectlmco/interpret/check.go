package interpret

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/cli-runtime/pkg/resource"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/config/validation"
	"github.com/mco-org/mco/pkg/kubectlmco/cmderr"
)

// runCheck loads every rule of every customization as mco-apiserver's
// validation does and prints PASS, UNSET or ERROR per rule, in the layout
// of karmadactl interpret --check. Any failure gives cmderr.Reported.
func runCheck(files resource.FilenameOptions, out io.Writer) error {
	infos, err := readInfos(files)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)
	failed := false
	for _, info := range infos {
		fmt.Fprintln(w, "-----------------------------------")
		source := info.Source
		if info.Name != "" {
			source = info.Name
		}
		fmt.Fprintf(w, "SOURCE: %s\n", source)
		if h, ok, err := asWebhookConfiguration(info.Object); ok {
			failed = checkWebhooks(w, h, err) || failed
			continue
		}
		c, err := asCustomization(info.Object)
		if err != nil {
			failed = true
			fmt.Fprintf(w, "%v\n", err)
			continue
		}
		target := c.Spec.Target
		switch {
		case target.Kind == "":
			failed = true
			fmt.Fprintln(w, "target.kind no set")
			continue
		case target.APIVersion == "":
			failed = true
			fmt.Fprintln(w, "target.apiVersion no set")
			continue
		}
		fmt.Fprintf(w, "TARGET: %s %s\n", target.APIVersion, target.Kind)
		fmt.Fprintln(w, "RULERS:")
		for _, r := range c.Spec.Customizations.Rules() {
			fmt.Fprintf(w, "    %s:\t", r.Operation)
			if !r.Set {
				fmt.Fprintln(w, "UNSET")
				continue
			}
			if errs := validation.ValidateScript(r, field.NewPath(r.Field)); len(errs) > 0 {
				failed = true
				details := make([]string, 0, len(errs))
				for _, e := range errs {
					details = append(details, strings.Join(strings.Fields(e.Detail), " "))
				}
				fmt.Fprintf(w, "ERROR: %s\n", strings.Join(details, "; "))
				continue
			}
			fmt.Fprintln(w, "PASS")
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if failed {
		return cmderr.Reported
	}
	return nil
}

// checkWebhooks prints PASS or ERROR per webhook of a configuration, as
// mco-apiserver's validation judges it (nothing is called); it returns
// whether any failed.
func checkWebhooks(w io.Writer, c *configv1alpha1.ResourceInterpreterWebhookConfiguration, readErr error) bool {
	if readErr != nil {
		fmt.Fprintf(w, "%v\n", readErr)
		return true
	}
	errs := validation.ValidateResourceInterpreterWebhookConfiguration(c)
	fmt.Fprintln(w, "WEBHOOKS:")
	for i, hook := range c.Webhooks {
		prefix := field.NewPath("webhooks").Index(i).String()
		var details []string
		for _, e := range errs {
			if e.Field == prefix || strings.HasPrefix(e.Field, prefix+".") {
				details = append(details, e.Error())
			}
		}
		if len(details) > 0 {
			fmt.Fprintf(w, "    %s:\tERROR: %s\n", hook.Name, strings.Join(details, "; "))
			continue
		}
		fmt.Fprintf(w, "    %s:\tPASS\n", hook.Name)
	}
	return len(errs) > 0
}
