package text

import (
	"strconv"
	"strings"
	"unicode"
)

// TokenKind classifies a token.
type TokenKind uint8

// Token kinds.
const (
	Word TokenKind = iota
	Number
	Op // a comparison operator such as >=
)

// Token is one word, number or operator of a question.
type Token struct {
	Text string // as normalized (lower case)
	Stem string // stem for matching; equal to Text for numbers and operators
	Kind TokenKind
	Num  float64 // the value of a Number
	// Start and End are byte offsets in the normalized question.
	Start, End int
}

// Tokenize splits normalized text into words, numbers and operators.
func Tokenize(s string) []Token { return AppendTokens(nil, s, Stem) }

// AppendTokens is Tokenize appending to dst, with stem giving each word's
// Stem: a caller that tokenizes many texts sharing words (the stored
// values of a column) passes Stem through a cache and reuses dst.
func AppendTokens(dst []Token, s string, stem func(string) string) []Token {
	out := dst
	i := 0
	for i < len(s) {
		r, size := decodeRune(s, i)
		switch {
		case r == '>' || r == '<' || r == '=' || r == '!' || r == '≥' || r == '≤' || r == '≠':
			j := i + size
			if j < len(s) && (s[j] == '=' || (r == '<' && s[j] == '>')) {
				j++
			}
			op := s[i:j]
			switch op {
			case "≥":
				op = ">="
			case "≤":
				op = "<="
			case "≠", "<>", "!=":
				op = "!="
			case "==":
				op = "="
			case "!":
				i = j
				continue
			}
			out = append(out, Token{Text: op, Stem: op, Kind: Op, Start: i, End: j})
			i = j
		case r == '%' || r == '$' || r == '€' || r == '£':
			out = append(out, Token{Text: string(r), Stem: string(r), Kind: Word, Start: i, End: i + size})
			i += size
		case r >= '0' && r <= '9':
			i = numberToken(s, i, &out, stem)
		case unicode.IsLetter(r) || r == '_':
			j := i
			for j < len(s) {
				r2, sz := decodeRune(s, j)
				if unicode.IsLetter(r2) || unicode.IsDigit(r2) || r2 == '_' || unicode.Is(unicode.Mn, r2) {
					j += sz
					continue
				}
				break
			}
			w := s[i:j]
			// possessive 's and contractions
			if j+1 < len(s) && s[j] == '\'' {
				rest := s[j+1:]
				switch {
				case rest == "s" || strings.HasPrefix(rest, "s ") || (len(rest) > 1 && rest[0] == 's' && !isWordByte(rest[1])):
					j += 2
				case strings.HasPrefix(rest, "t") && strings.HasSuffix(w, "n"):
					if w != "n" { // "n't" alone is just the negation
						out = append(out, wordToken(strings.TrimSuffix(w, "n"), i, j-1, stem))
					}
					out = append(out, wordToken("not", j-1, j+2, stem))
					i = j + 2
					continue
				}
			}
			out = append(out, wordToken(w, i, j, stem))
			i = j
		default:
			i += size
		}
	}
	return out
}

func wordToken(w string, start, end int, stem func(string) string) Token {
	return Token{Text: w, Stem: stem(w), Kind: Word, Start: start, End: end}
}

func decodeRune(s string, i int) (rune, int) {
	for j, r := range s[i:] {
		if j == 0 {
			size := len(string(r))
			if r == unicode.ReplacementChar {
				size = 1
			}
			return r, size
		}
	}
	return 0, 1
}

// numberToken reads a number starting at i ("10,000", "2.5", "30cm2",
// "10k", "5th") and appends its tokens.
func numberToken(s string, i int, out *[]Token, stem func(string) string) int {
	j := i
	var digits strings.Builder
	for j < len(s) {
		c := s[j]
		switch {
		case c >= '0' && c <= '9':
			digits.WriteByte(c)
			j++
			continue
		case c == ',' && j+3 < len(s)+1 && isDigits(s[j+1:min(j+4, len(s))], 3) && (j+4 >= len(s) || !(s[j+4] >= '0' && s[j+4] <= '9')):
			j++
			continue
		case c == '.' && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9' && !strings.Contains(digits.String(), "."):
			digits.WriteByte('.')
			j++
			continue
		}
		break
	}
	text := digits.String()
	v, _ := strconv.ParseFloat(text, 64)
	end := j
	// suffixes glued to the number
	k := j
	for k < len(s) && (s[k] >= 'a' && s[k] <= 'z' || s[k] >= '0' && s[k] <= '9') {
		k++
	}
	suffix := s[j:k]
	switch suffix {
	case "":
	case "k":
		v *= 1000
		text = strconv.FormatFloat(v, 'f', -1, 64)
		end = k
		suffix = ""
	case "st", "nd", "rd", "th":
		end = k
		suffix = ""
	}
	*out = append(*out, Token{Text: text, Stem: text, Kind: Number, Num: v, Start: i, End: end})
	if suffix != "" {
		// "30cm2" → 30, cm2; "25-oh" is handled by the dash separator
		*out = append(*out, wordToken(suffix, j, k, stem))
		return k
	}
	return end
}

func isDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
