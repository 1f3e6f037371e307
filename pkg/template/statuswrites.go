package template

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// statusWrites remembers which resourceVersions of templates come from
// mco's own status writes, so that a binding keeps pointing at the
// template's last change that matters (spec or metadata) instead of being
// rewritten after every status write. An entry goes with its template.
type statusWrites struct {
	mu     sync.Mutex
	latest map[types.UID]statusWrite
}

type statusWrite struct {
	after     string // resourceVersion the status write produced
	effective string // resourceVersion of the last change before it that was not ours
}

func newStatusWrites() *statusWrites { return &statusWrites{latest: map[types.UID]statusWrite{}} }

// record notes that a status write took template uid from resourceVersion
// before to after.
func (s *statusWrites) record(uid types.UID, before, after string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	eff := before
	if w, ok := s.latest[uid]; ok && w.after == before {
		eff = w.effective
	}
	s.latest[uid] = statusWrite{after: after, effective: eff}
}

// effective returns the resourceVersion of the template's last change that
// was not one of mco's status writes (rv itself when rv is not one).
func (s *statusWrites) effective(uid types.UID, rv string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w, ok := s.latest[uid]; ok && w.after == rv {
		return w.effective
	}
	return rv
}

// forget drops what is known of template uid, once it is deleted.
func (s *statusWrites) forget(uid types.UID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.latest, uid)
}

// len is how many templates have an entry.
func (s *statusWrites) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.latest)
}
