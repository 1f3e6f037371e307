package differential

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/runtime"
)

// workers is how many cases run at once; both servers share two cores.
const workers = 4

// ran is a case's result, and whether kube-apiserver accepted it (the
// accepted corpus creates seed the mutations).
type ran struct {
	Result
	kubeAccepted bool
	kube, mco    Outcome
	err          error
}

// runAll runs cases on both servers, in parallel, results in case order.
func runAll(ctx context.Context, kube, mco *server, cases []Case) []ran {
	out := make([]ran, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = runCase(ctx, kube, mco, cases[i])
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// runCase sends one case to both servers and compares their answers. An
// update case first stores its base on both, for real.
func runCase(ctx context.Context, kube, mco *server, c Case) ran {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	r := ran{Result: Result{Case: c}}
	obj := inNamespace(c.Kind, c.Object)
	var ko, mo Outcome
	if !c.IsUpdate() {
		if ko, r.err = kube.create(ctx, c.Kind, obj, true); r.err != nil {
			return r
		}
		if mo, r.err = mco.create(ctx, c.Kind, obj, true); r.err != nil {
			return r
		}
	} else {
		var stop bool
		if ko, mo, stop, r.err = runUpdate(ctx, kube, mco, c); r.err != nil {
			return r
		} else if stop {
			r.kubeAccepted, r.mco = true, mo
			r.Diffs = []Difference{{
				Group:  fmt.Sprintf("base: rejected by mco (%s)", mo),
				Detail: "the update's base, which kube stored, was rejected by mco: " + mo.Message,
			}}
			return r
		}
	}
	r.kubeAccepted, r.kube, r.mco = ko.Accepted(), ko, mo
	r.Diffs = compareOutcomes(Ignored(), c.Kind.GVK.Kind, obj, c.IsUpdate(), ko, mo)
	return r
}

// runUpdate stores the base on both servers (as its own kind, which may
// be another version), then applies the case's patch to what each stored
// and sends that as a dry-run update. stop is set, with mco's outcome,
// when mco rejected the base.
func runUpdate(ctx context.Context, kube, mco *server, c Case) (ko, mo Outcome, stop bool, err error) {
	base := inNamespace(c.BaseKind, c.Base)
	kb, err := kube.create(ctx, c.BaseKind, base, false)
	if err != nil {
		return ko, mo, false, err
	}
	if !kb.Accepted() {
		return ko, mo, false, fmt.Errorf("kube-apiserver rejected the base (%s): %s", kb, kb.Message)
	}
	mb, err := mco.create(ctx, c.BaseKind, base, false)
	if err != nil {
		return ko, mo, false, err
	}
	if !mb.Accepted() {
		return ko, mb, true, nil
	}
	// Each base is read back in the case's version (it may have been
	// written through another), once the server's controllers settled it.
	stored := map[*server]map[string]any{}
	for _, s := range []*server{kube, mco} {
		if err := waitSettled(ctx, s, c.Kind, metadataName(c.Base)); err != nil {
			return ko, mo, false, err
		}
		if stored[s], err = s.get(ctx, c.Kind, metadataName(c.Base)); err != nil {
			return ko, mo, false, err
		}
	}
	if ko, err = updatePatched(ctx, kube, c, stored[kube]); err != nil {
		return ko, mo, false, err
	}
	mo, err = updatePatched(ctx, mco, c, stored[mco])
	return ko, mo, false, err
}

// updatePatched applies the case's patch to the object a server stored and
// sends that as a dry-run update. When the server answers Conflict (one of
// its own controllers wrote the object since, as kube-apiserver's priority
// and fairness controller writes a FlowSchema's status), it reads the
// object again and retries, as a client does.
func updatePatched(ctx context.Context, s *server, c Case, stored map[string]any) (Outcome, error) {
	const attempts = 5
	for i := 1; ; i++ {
		obj, err := patched(stored, c.Patch)
		if err != nil {
			return Outcome{}, err
		}
		o, err := s.update(ctx, c.Kind, obj)
		if err != nil || o.Code != http.StatusConflict || i == attempts {
			return o, err
		}
		if stored, err = s.get(ctx, c.Kind, metadataName(stored)); err != nil {
			return o, err
		}
	}
}

// inNamespace returns a copy of obj in the test namespace when its kind is
// namespaced.
func inNamespace(k Kind, obj map[string]any) map[string]any {
	out := runtime.DeepCopyJSON(obj)
	if !k.Namespaced {
		return out
	}
	meta, ok := out["metadata"].(map[string]any)
	if !ok {
		meta = map[string]any{}
		out["metadata"] = meta
	}
	meta["namespace"] = testNamespace
	return out
}

// patched applies a JSON merge patch to a stored object.
func patched(stored map[string]any, patch []byte) (map[string]any, error) {
	data, err := json.Marshal(stored)
	if err != nil {
		return nil, err
	}
	if data, err = jsonpatch.MergePatch(data, patch); err != nil {
		return nil, fmt.Errorf("apply the update: %w", err)
	}
	return decodeObject(data)
}
