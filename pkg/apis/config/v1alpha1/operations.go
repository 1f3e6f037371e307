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

package v1alpha1

// InterpreterOperation names one thing an interpreter answers about a kind.
type InterpreterOperation string

// The operations of the interpreter, as Karmada names them.
const (
	// InterpreterOperationAll, in a webhook's rule, is every operation.
	InterpreterOperationAll                 InterpreterOperation = "*"
	InterpreterOperationInterpretReplica    InterpreterOperation = "InterpretReplica"
	InterpreterOperationInterpretComponent  InterpreterOperation = "InterpretComponent"
	InterpreterOperationReviseReplica       InterpreterOperation = "ReviseReplica"
	InterpreterOperationRetain              InterpreterOperation = "Retain"
	InterpreterOperationAggregateStatus     InterpreterOperation = "AggregateStatus"
	InterpreterOperationInterpretStatus     InterpreterOperation = "InterpretStatus"
	InterpreterOperationInterpretHealth     InterpreterOperation = "InterpretHealth"
	InterpreterOperationInterpretDependency InterpreterOperation = "InterpretDependency"
)

// ScriptRule is one operation's script in a CustomizationRules.
type ScriptRule struct {
	Operation InterpreterOperation `protobuf:"bytes,1,opt,name=operation,casttype=InterpreterOperation"`
	// Field is the rule's field name in CustomizationRules.
	Field string `protobuf:"bytes,2,opt,name=field"`
	// Function is the Lua function the script must define.
	Function string `protobuf:"bytes,3,opt,name=function"`
	// Set tells whether the rule is given; Script is then its Lua source.
	Set    bool   `protobuf:"varint,4,opt,name=set"`
	Script string `protobuf:"bytes,5,opt,name=script"`
}

// Rules lists every operation of c in a fixed order, set or not.
func (c *CustomizationRules) Rules() []ScriptRule {
	rule := func(op InterpreterOperation, field, fn string, set bool, script func() string) ScriptRule {
		r := ScriptRule{Operation: op, Field: field, Function: fn, Set: set}
		if set {
			r.Script = script()
		}
		return r
	}
	return []ScriptRule{
		rule(InterpreterOperationRetain, "retention", "Retain", c.Retention != nil,
			func() string { return c.Retention.LuaScript }),
		rule(InterpreterOperationInterpretReplica, "replicaResource", "GetReplicas", c.ReplicaResource != nil,
			func() string { return c.ReplicaResource.LuaScript }),
		rule(InterpreterOperationInterpretComponent, "componentResource", "GetComponents", c.ComponentResource != nil,
			func() string { return c.ComponentResource.LuaScript }),
		rule(InterpreterOperationReviseReplica, "replicaRevision", "ReviseReplica", c.ReplicaRevision != nil,
			func() string { return c.ReplicaRevision.LuaScript }),
		rule(InterpreterOperationInterpretStatus, "statusReflection", "ReflectStatus", c.StatusReflection != nil,
			func() string { return c.StatusReflection.LuaScript }),
		rule(InterpreterOperationAggregateStatus, "statusAggregation", "AggregateStatus", c.StatusAggregation != nil,
			func() string { return c.StatusAggregation.LuaScript }),
		rule(InterpreterOperationInterpretHealth, "healthInterpretation", "InterpretHealth", c.HealthInterpretation != nil,
			func() string { return c.HealthInterpretation.LuaScript }),
		rule(InterpreterOperationInterpretDependency, "dependencyInterpretation", "GetDependencies", c.DependencyInterpretation != nil,
			func() string { return c.DependencyInterpretation.LuaScript }),
	}
}
