package benchkit

import "flag"

// ArgsFlag registers a repeatable string flag on fs and returns the values
// given, in order.
func ArgsFlag(fs *flag.FlagSet, name, usage string) *[]string {
	var values []string
	fs.Func(name, usage, func(v string) error {
		values = append(values, v)
		return nil
	})
	return &values
}
