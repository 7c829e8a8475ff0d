package llmreply_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/llmreply"
)

// BenchmarkParse reads typical replies and the largest hostile shapes (a
// reply of many questions, braces, fences or list items): all stay linear.
func BenchmarkParse(b *testing.B) {
	m := labs(b)
	n := llmreply.MaxReply
	cases := map[string]string{
		"many_questions": strings.Repeat("?\n", n/2-10),
		"many_braces":    strings.Repeat(`{"kind"`, n/7-10),
		"many_fences":    strings.Repeat("```\n", n/4-10),
		"long_list":      "Which?\n" + strings.Repeat("1. Glucose\n", n/11-10),
	}
	for _, name := range []string{"json_sql", "prose_numbered", "values"} {
		raw, err := os.ReadFile(filepath.Join("testdata", "replies", name+".txt"))
		if err != nil {
			b.Fatal(err)
		}
		cases[name] = string(raw)
	}
	for name, raw := range cases {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = llmreply.ParseWith(raw, m, analytes)
			}
		})
	}
}
