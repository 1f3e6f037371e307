package agent

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"

	"github.com/mco-org/mco/pkg/agent/access"
)

// rotateRetry is the wait after a failed renewal.
const rotateRetry = 30 * time.Second

// tokenTimes reads when a ServiceAccount token was issued and when it
// expires from its claims (not verified: mco does that).
func tokenTimes(token string) (issued, expires time.Time, err error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return issued, expires, fmt.Errorf("not a JWT")
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return issued, expires, fmt.Errorf("decode claims: %w", err)
	}
	var c struct {
		IssuedAt  int64 `json:"iat"`
		ExpiresAt int64 `json:"exp"`
	}
	if err := json.Unmarshal(payload, &c); err != nil {
		return issued, expires, fmt.Errorf("decode claims: %w", err)
	}
	if c.ExpiresAt == 0 || c.IssuedAt == 0 || c.ExpiresAt <= c.IssuedAt {
		return issued, expires, fmt.Errorf("the token has no lifetime")
	}
	return time.Unix(c.IssuedAt, 0), time.Unix(c.ExpiresAt, 0), nil
}

// renewAt is when a token is renewed: once 80% of its lifetime is gone,
// as the kubelet does with its projected tokens.
func renewAt(issued, expires time.Time) time.Time {
	return issued.Add(expires.Sub(issued) * 4 / 5)
}

// rotate renews the agent's token before it expires, for as long again,
// and writes it back to the store, until ctx ends. A token without an
// expiry is left as it is.
func (a *Agent) rotate(ctx context.Context, kube kubernetes.Interface) error {
	logger := klog.FromContext(ctx)
	for {
		token, raw := a.cred.get()
		issued, expires, err := tokenTimes(token)
		if err != nil {
			logger.Info("The credential for mco is not rotated", "reason", err.Error())
			<-ctx.Done()
			return nil
		}
		wait := time.Until(renewAt(issued, expires))
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		next, nextExpires, err := access.Token(ctx, kube, a.cfg.Identity.Name, expires.Sub(issued))
		if err == nil {
			var updated []byte
			if updated, err = withToken(raw, next); err == nil {
				if err = a.store.store(ctx, updated); err == nil {
					a.cred.set(next, updated)
					logger.Info("Renewed the credential for mco", "expires", nextExpires.UTC().Format(time.RFC3339), "store", a.store.String())
					continue
				}
			}
		}
		if ctx.Err() != nil {
			return nil
		}
		logger.Error(err, "Could not renew the credential for mco; trying again", "retryIn", rotateRetry, "expires", expires.UTC().Format(time.RFC3339))
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(rotateRetry):
		}
	}
}
