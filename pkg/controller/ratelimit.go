package controller

import "golang.org/x/time/rate"

// newBucket is the overall retry rate: 50 keys per second with bursts of
// 300, so that a failing dependency does not turn into a hot loop.
func newBucket() *rate.Limiter { return rate.NewLimiter(rate.Limit(50), 300) }
