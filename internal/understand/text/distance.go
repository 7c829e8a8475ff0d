package text

// EditDistance is the optimal-string-alignment Damerau–Levenshtein
// distance between two words, in runes: insertions, deletions,
// substitutions and transpositions of neighbours each cost one.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Similarity is 1 − EditDistance/length of the longer word: 1 for equal
// words, 0 for words with nothing in common.
func Similarity(a, b string) float64 {
	n := max(len([]rune(a)), len([]rune(b)))
	if n == 0 {
		return 1
	}
	return 1 - float64(EditDistance(a, b))/float64(n)
}

// EditDistanceAtMost is EditDistance of two words given as runes when it
// is at most k, and k+1 otherwise: it stops as soon as no alignment can
// stay within k, so that comparing a word with many names costs little
// for the names that are far from it. Words up to 32 runes long need no
// allocation.
func EditDistanceAtMost(a, b []rune, k int) int {
	if k < 0 {
		return k + 1
	}
	if d := len(a) - len(b); d > k || -d > k {
		return k + 1
	}
	var buf [3 * 33]int
	var rows []int
	if n := len(b) + 1; n <= 33 {
		rows = buf[:3*n]
	} else {
		rows = make([]int, 3*n)
	}
	n := len(b) + 1
	prev2, prev, cur := rows[:n], rows[n:2*n], rows[2*n:]
	for j := range prev {
		prev[j] = j
	}
	// before is the least value of the row before prev: a transposition
	// reaches back two rows at a cost of one, so the distance exceeds k
	// once a row is beyond k and the row before it at least k
	before := 0
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			c := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				c = min(c, prev2[j-2]+1)
			}
			cur[j] = c
			low = min(low, c)
		}
		if low > k && before >= k {
			return k + 1
		}
		before = low
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], k+1)
}
