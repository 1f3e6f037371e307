// Package cmderr holds errors kubectl mco's commands share with its root.
package cmderr

import "errors"

// Reported is returned by a command that has printed its failures itself:
// the command exits 1 without another error line.
var Reported = errors.New("failures reported above")
