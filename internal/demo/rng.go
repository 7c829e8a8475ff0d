package demo

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
)

// rng is the random source of one part of one dataset. Every part gets its
// own stream, derived from the seed and a label, so changing how much one
// part draws never shifts the values of another.
type rng struct {
	*rand.Rand
}

// newRNG returns a PCG stream for (seed, labels...).
func newRNG(seed int64, labels ...string) *rng {
	h := fnv.New64a()
	for _, l := range labels {
		h.Write([]byte(l))
		h.Write([]byte{0})
	}
	return &rng{rand.New(rand.NewPCG(uint64(seed), h.Sum64()))}
}

// between returns an int in [lo, hi].
func (r *rng) between(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + r.IntN(hi-lo+1)
}

// uniform returns a float64 in [lo, hi).
func (r *rng) uniform(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }

// normal returns a normally distributed value.
func (r *rng) normal(mean, sd float64) float64 { return mean + sd*r.NormFloat64() }

// lognormal returns a log-normally distributed value with the given median.
func (r *rng) lognormal(median, sigma float64) float64 {
	return median * math.Exp(sigma*r.NormFloat64())
}

// chance reports true with probability p.
func (r *rng) chance(p float64) bool { return r.Float64() < p }

// pick returns an index drawn with the given (non-negative) weights.
func (r *rng) pick(weights []float64) int {
	var total float64
	for _, w := range weights {
		total += w
	}
	x := r.Float64() * total
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

// cumulative is a weighted sampler for many draws from the same weights.
type cumulative []float64

func newCumulative(weights []float64) cumulative {
	c := make(cumulative, len(weights))
	var s float64
	for i, w := range weights {
		s += w
		c[i] = s
	}
	return c
}

// draw returns an index with probability proportional to its weight.
func (c cumulative) draw(r *rng) int {
	x := r.Float64() * c[len(c)-1]
	lo, hi := 0, len(c)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if c[mid] > x {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// oneOf returns a random element of xs.
func oneOf[T any](r *rng, xs []T) T { return xs[r.IntN(len(xs))] }

// shuffle permutes xs in place.
func shuffle[T any](r *rng, xs []T) {
	r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
}

// apportion splits total into len(weights) non-negative integer parts
// proportional to weights (largest remainder; ties go to the lower index), so
// the parts always sum to total exactly.
func apportion(total int, weights []float64) []int {
	var sum float64
	for _, w := range weights {
		sum += w
	}
	parts := make([]int, len(weights))
	rems := make([]float64, len(weights))
	given := 0
	for i, w := range weights {
		exact := float64(total) * w / sum
		parts[i] = int(exact)
		rems[i] = exact - float64(parts[i])
		given += parts[i]
	}
	for given < total {
		best := 0
		for i := range rems {
			if rems[i] > rems[best] {
				best = i
			}
		}
		parts[best]++
		rems[best] = -1
		given++
	}
	return parts
}

// round returns x rounded to the given number of decimals; the result is the
// float64 nearest to that decimal, so it prints back as the short decimal.
func round(x float64, decimals int) float64 {
	p := math.Pow10(decimals)
	return math.Round(x*p) / p
}

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

func itoa(i int) string { return strconv.Itoa(i) }
