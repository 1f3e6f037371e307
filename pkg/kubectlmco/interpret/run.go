package interpret

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/interpreter/lua"
	"github.com/mco-org/mco/pkg/interpreter/webhook"
	"github.com/mco-org/mco/pkg/kubectlmco/cmderr"
)

// operationNames lists the operations for help and errors.
func operationNames() string {
	var names []string
	for _, op := range interpreter.Operations() {
		names = append(names, string(op))
	}
	return strings.Join(names, ",")
}

// run checks the customizations or runs one operation.
func run(ctx context.Context, o options, streams genericiooptions.IOStreams) error {
	if len(o.files.Filenames) == 0 {
		return errors.New("-f is required: the ResourceInterpreterCustomizations (or ResourceInterpreterWebhookConfigurations) to check or run")
	}
	if o.check {
		if o.operation != "" {
			return errors.New("you can't set both --check and --operation options")
		}
		return runCheck(o.files, streams.Out)
	}
	if o.operation == "" {
		return errors.New("operation is not set for executing: set --operation, or --check")
	}
	op, err := interpreter.ParseOperation(o.operation)
	if err != nil {
		return err
	}
	customizations, hookConfigs, err := readConfigs(o.files)
	if err != nil {
		return fmt.Errorf("fail to get customization object: %w", err)
	}
	set, errs := interpreter.NewSet(customizations)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	hooks, errs := webhook.NewSet(hookConfigs, map[string]*http.Client{})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	var args interpreter.Args
	if args.Desired, err = readObject(o.desiredFile); err != nil {
		return fmt.Errorf("fail to get desired object: %w", err)
	}
	if args.Observed, err = readObject(o.observedFile); err != nil {
		return fmt.Errorf("fail to get observed object: %w", err)
	}
	if args.Status, err = readStatusItems(o.statusFile, streams.In); err != nil {
		return fmt.Errorf("fail to get status items: %w", err)
	}
	args.Replica = o.desiredReplica

	interp := interpreter.New(lua.NewVM(), set)
	interp.SetWebhooks(hooks)
	results, err := interp.Execute(ctx, op, args)
	if err != nil {
		fmt.Fprintf(streams.ErrOut, "Execute %s error: %v\n", op, err)
		return cmderr.Reported
	}
	return printResults(streams.Out, results)
}

// printResults prints each answer as a YAML document headed by its name.
func printResults(w io.Writer, results []interpreter.Result) error {
	for i, r := range results {
		out, err := toYAML(r.Value)
		if err != nil {
			return fmt.Errorf("print %s: %w", r.Name, err)
		}
		fmt.Fprintf(w, "---\n# [%d/%d] %s:\n%s", i+1, len(results), r.Name, out)
	}
	return nil
}
