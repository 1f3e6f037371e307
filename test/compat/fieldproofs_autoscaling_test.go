package compat

// proofsAutoscaling: autoscaling.karmada.io (FederatedHPA,
// CronFederatedHPA).
var proofsAutoscaling = map[string]string{
	"autoscaling.karmada.io/CronFederatedHPA.spec":                              "test: test/integration/autoscaling_test.go#TestCronFederatedHPARuns | test: test/e2e/autoscaling_test.go#TestCronFederatedHPA",
	"autoscaling.karmada.io/CronFederatedHPA.spec.rules":                        "test: test/integration/autoscaling_test.go#TestCronFederatedHPARuns | test: test/e2e/autoscaling_test.go#TestCronFederatedHPA",
	"autoscaling.karmada.io/CronFederatedHPA.spec.rules.failedHistoryLimit":     "test: pkg/controllers/cronfederatedhpa/plan_test.go#TestRecord",
	"autoscaling.karmada.io/CronFederatedHPA.spec.rules.name":                   "test: test/integration/autoscaling_test.go#TestCronFederatedHPARuns",
	"autoscaling.karmada.io/CronFederatedHPA.spec.rules.schedule":               "test: test/integration/autoscaling_test.go#TestCronFederatedHPARuns | test: pkg/controllers/cronfederatedhpa/plan_test.go#TestPlan",
	"autoscaling.karmada.io/CronFederatedHPA.spec.rules.successfulHistoryLimit": "test: pkg/controllers/cronfederatedhpa/plan_test.go#TestRecord",
	"autoscaling.karmada.io/CronFederatedHPA.spec.rules.suspend":                "test: pkg/controllers/cronfederatedhpa/plan_test.go#TestPlan | test: pkg/controllers/cronfederatedhpa/plan_test.go#TestRecord",
	"autoscaling.karmada.io/CronFederatedHPA.spec.rules.targetMaxReplicas":      "test: test/integration/autoscaling_test.go#TestCronFederatedHPARuns",
	"autoscaling.karmada.io/CronFederatedHPA.spec.rules.targetMinReplicas":      "test: test/integration/autoscaling_test.go#TestCronFederatedHPARuns",
	"autoscaling.karmada.io/CronFederatedHPA.spec.rules.targetReplicas":         "test: test/integration/autoscaling_test.go#TestCronFederatedHPARuns | test: test/e2e/autoscaling_test.go#TestCronFederatedHPA",
	"autoscaling.karmada.io/CronFederatedHPA.spec.rules.timeZone":               "test: pkg/controllers/cronfederatedhpa/plan_test.go#TestPlan",
	"autoscaling.karmada.io/CronFederatedHPA.spec.scaleTargetRef":               "test: test/integration/autoscaling_test.go#TestCronFederatedHPARuns | test: test/e2e/autoscaling_test.go#TestCronFederatedHPA",
	"autoscaling.karmada.io/FederatedHPA.spec":                                  "test: test/e2e/autoscaling_test.go#TestFederatedHPA",
	"autoscaling.karmada.io/FederatedHPA.spec.behavior":                         "test: test/e2e/autoscaling_test.go#TestFederatedHPA",
	"autoscaling.karmada.io/FederatedHPA.spec.maxReplicas":                      "test: test/e2e/autoscaling_test.go#TestFederatedHPA | test: test/integration/autoscaling_test.go#TestCronFederatedHPARuns",
	"autoscaling.karmada.io/FederatedHPA.spec.metrics":                          "test: test/e2e/autoscaling_test.go#TestFederatedHPA",
	"autoscaling.karmada.io/FederatedHPA.spec.minReplicas":                      "test: test/e2e/autoscaling_test.go#TestFederatedHPA | test: test/integration/autoscaling_test.go#TestCronFederatedHPARuns",
	"autoscaling.karmada.io/FederatedHPA.spec.scaleTargetRef":                   "test: test/e2e/autoscaling_test.go#TestFederatedHPA",
}
