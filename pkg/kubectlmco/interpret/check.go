package interpret

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/cli-runtime/pkg/resource"

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
