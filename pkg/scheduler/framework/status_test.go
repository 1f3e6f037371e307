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

package framework_test

import (
	"errors"
	"testing"

	"github.com/mco-org/mco/pkg/scheduler/framework"
)

func TestStatus(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	tests := []struct {
		name          string
		status        *framework.Status
		wantCode      framework.Code
		wantReasons   []string
		wantError     string
		wantWrapsBoom bool
	}{
		{name: "A nil status is a success without reasons or error.", status: nil, wantCode: framework.Success},
		{name: "A success status carries no error.", status: framework.NewStatus(framework.Success), wantCode: framework.Success},
		{
			name:        "An unschedulable status joins its reasons into its error.",
			status:      framework.NewStatus(framework.Unschedulable, "first", "second"),
			wantCode:    framework.Unschedulable,
			wantReasons: []string{"first", "second"},
			wantError:   "first, second",
		},
		{
			name:          "A status built from an error returns that very error.",
			status:        framework.AsStatus(boom),
			wantCode:      framework.Error,
			wantReasons:   []string{"boom"},
			wantError:     "boom",
			wantWrapsBoom: true,
		},
		{name: "A status built from a nil error is a success.", status: framework.AsStatus(nil), wantCode: framework.Success},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.status.Code(); got != tt.wantCode {
				t.Errorf("Code() = %v, want %v", got, tt.wantCode)
			}
			if got := tt.status.IsSuccess(); got != (tt.wantCode == framework.Success) {
				t.Errorf("IsSuccess() = %v", got)
			}
			if got := tt.status.Reasons(); len(got) != len(tt.wantReasons) {
				t.Errorf("Reasons() = %q, want %q", got, tt.wantReasons)
			} else {
				for i := range got {
					if got[i] != tt.wantReasons[i] {
						t.Errorf("Reasons()[%d] = %q, want %q", i, got[i], tt.wantReasons[i])
					}
				}
			}
			err := tt.status.AsError()
			if tt.wantError == "" {
				if err != nil {
					t.Errorf("AsError() = %v, want nil", err)
				}
				return
			}
			if err == nil || err.Error() != tt.wantError {
				t.Errorf("AsError() = %v, want %q", err, tt.wantError)
			}
			if errors.Is(err, boom) != tt.wantWrapsBoom {
				t.Errorf("errors.Is(AsError(), boom) = %v, want %v", !tt.wantWrapsBoom, tt.wantWrapsBoom)
			}
		})
	}
}

func TestWithPluginLeavesTheOriginalUntouched(t *testing.T) {
	t.Parallel()
	shared := framework.NewStatus(framework.Unschedulable, "no")
	named := shared.WithPlugin("P")
	if shared.Plugin() != "" || named.Plugin() != "P" {
		t.Errorf("shared plugin %q, named plugin %q; want \"\" and \"P\"", shared.Plugin(), named.Plugin())
	}
	if named.Code() != framework.Unschedulable || named.Message() != "no" {
		t.Errorf("named = %v %q, want Unschedulable \"no\"", named.Code(), named.Message())
	}
	var nilStatus *framework.Status
	if nilStatus.WithPlugin("P") != nil || nilStatus.Plugin() != "" || nilStatus.Message() != "" {
		t.Error("a nil status should stay nil and empty")
	}
}

func TestCodeString(t *testing.T) {
	t.Parallel()
	for code, want := range map[framework.Code]string{
		framework.Success: "Success", framework.Unschedulable: "Unschedulable", framework.Error: "Error", 42: "Unknown",
	} {
		if got := code.String(); got != want {
			t.Errorf("Code(%d).String() = %q, want %q", int(code), got, want)
		}
	}
}
