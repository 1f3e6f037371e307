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

package spread

import "math"

// scoreUnit makes the count a group score is mainly about (clusters able to
// run every replica, or replicas of room) outweigh the cluster scores, which
// only break ties.
const scoreUnit int64 = 1000

// scoreRule computes how much a group is worth to a binding, as Karmada
// scores regions:
//
//   - Duplicated: scoreUnit for each cluster of the group able to run all
//     the replicas, plus the mean score of those clusters; 0 when none can.
//   - Divided: the group should hold its share, goal = replicas/minGroups+1
//     (integer division). Going through its clusters best ranked first, the
//     group is worth scoreUnit times the room counted until the goal is
//     reached (at most the goal) plus the mean score of the clusters counted,
//     so that among groups reaching the goal the ones needing fewer, better
//     clusters win.
type scoreRule struct {
	divided  bool
	replicas int64
	goal     int64
}

func newScoreRule(replicas int32, divided bool, minGroups int) scoreRule {
	r := scoreRule{divided: divided, replicas: int64(max(replicas, 0))}
	r.goal = r.replicas/int64(max(minGroups, 1)) + 1
	return r
}

// groupScore accumulates one group's score over its clusters, which must be
// added best ranked first.
type groupScore struct {
	room, score, counted int64
	reached              bool // Divided: the counted room reaches the goal
}

func (r *scoreRule) add(s *groupScore, c *Candidate) {
	if !r.divided {
		if c.Available >= r.replicas {
			s.counted++
			s.score += c.Score
		}
		return
	}
	if s.reached {
		return
	}
	s.room = addRoom(s.room, c.Available)
	s.score += c.Score
	s.counted++
	s.reached = s.room >= r.goal
}

func (r *scoreRule) value(s *groupScore) int64 {
	if s.counted == 0 {
		return 0
	}
	mean := s.score / s.counted
	if !r.divided {
		return s.counted*scoreUnit + mean
	}
	if s.reached {
		return r.goal*scoreUnit + mean
	}
	return s.room*scoreUnit + mean
}

// addRoom adds room b, counted as 0 when negative, to a, stopping at
// MaxInt64.
func addRoom(a, b int64) int64 {
	b = max(b, 0)
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
