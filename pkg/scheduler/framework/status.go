/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Package framework is the plugin host of the scheduler: the filter and score
// extension points, the status a plugin reports, the per-binding cycle state,
// and the diagnosis that explains why no cluster fit.
package framework

import (
	"errors"
	"strings"
)

// Code is the outcome of one plugin call.
type Code int

const (
	// Success means the cluster passed, or the call worked.
	Success Code = iota
	// Unschedulable means the cluster cannot take the binding; the reasons
	// say why and end up in the binding's Scheduled condition.
	Unschedulable
	// Error means the plugin could not decide, for instance because the
	// placement is malformed; scheduling of the binding stops.
	Error
)

// String returns the name of the code.
func (c Code) String() string {
	switch c {
	case Success:
		return "Success"
	case Unschedulable:
		return "Unschedulable"
	case Error:
		return "Error"
	}
	return "Unknown"
}

// Status is what a plugin reports. A nil *Status means Success.
//
// Statuses may be shared between calls (plugins keep prebuilt ones to avoid
// allocating per cluster), so a Status must not be modified once returned.
type Status struct {
	code    Code
	reasons []string
	plugin  string
	err     error
}

// NewStatus builds a status with the given code and reasons.
func NewStatus(code Code, reasons ...string) *Status {
	return &Status{code: code, reasons: reasons}
}

// AsStatus wraps err in an Error status; a nil err gives nil (Success).
func AsStatus(err error) *Status {
	if err == nil {
		return nil
	}
	return &Status{code: Error, reasons: []string{err.Error()}, err: err}
}

// Code returns the code; Success for a nil status.
func (s *Status) Code() Code {
	if s == nil {
		return Success
	}
	return s.code
}

// IsSuccess tells whether the status is nil or Success.
func (s *Status) IsSuccess() bool {
	return s.Code() == Success
}

// IsUnschedulable tells whether the status rejects the cluster.
func (s *Status) IsUnschedulable() bool {
	return s.Code() == Unschedulable
}

// Reasons returns the reasons; callers must not modify the slice.
func (s *Status) Reasons() []string {
	if s == nil {
		return nil
	}
	return s.reasons
}

// Plugin returns the name of the plugin that produced the status, if known.
func (s *Status) Plugin() string {
	if s == nil {
		return ""
	}
	return s.plugin
}

// WithPlugin returns a copy of the status attributed to the named plugin.
// Plugins call it once when they build their shared statuses.
func (s *Status) WithPlugin(name string) *Status {
	if s == nil {
		return nil
	}
	c := *s
	c.plugin = name
	return &c
}

// Message joins the reasons with ", ".
func (s *Status) Message() string {
	if s == nil {
		return ""
	}
	return strings.Join(s.reasons, ", ")
}

// AsError returns nil for Success; otherwise the wrapped error when the
// status was built by AsStatus, or an error carrying Message.
func (s *Status) AsError() error {
	if s.IsSuccess() {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	return errors.New(s.Message())
}
