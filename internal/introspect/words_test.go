package introspect_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/introspect"
)

func TestSplitName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"order_date", []string{"order", "date"}},
		{"OrderDate", []string{"order", "date"}},
		{"orderDate", []string{"order", "date"}},
		{"HTTPStatus", []string{"http", "status"}},
		{"area_cm2", []string{"area", "cm2"}},
		{"Order Details", []string{"order", "details"}},
		{"customerID", []string{"customer", "id"}},
		{"__x__", []string{"x"}},
	} {
		if got := introspect.SplitName(tc.name); !cmp.Equal(got, tc.want) {
			t.Errorf("splitName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSingularPlural(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ plural, singular string }{
		{"categories", "category"},
		{"people", "person"},
		{"statuses", "status"},
		{"addresses", "address"},
		{"boxes", "box"},
		{"matches", "match"},
		{"analyses", "analysis"},
		{"houses", "house"},
		{"books", "book"},
		{"orders", "order"},
		{"series", "series"},
		{"leaves", "leave"},
		{"photos", "photo"},
		{"cities", "city"},
		{"days", "day"},
	} {
		if got := introspect.Singular(tc.plural); got != tc.singular {
			t.Errorf("singular(%q) = %q, want %q", tc.plural, got, tc.singular)
		}
		if got := introspect.Plural(tc.singular); got != tc.plural {
			t.Errorf("plural(%q) = %q, want %q", tc.singular, got, tc.plural)
		}
	}
	if got := introspect.Singular("heroes"); got != "hero" {
		t.Errorf("singular(heroes) = %q, want hero", got)
	}
	for _, w := range []string{"status", "address", "analysis", "book", "person", "data"} {
		if got := introspect.Singular(w); got != w {
			t.Errorf("singular(%q) = %q, want it kept", w, got)
		}
	}
}

func TestParticiple(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ word, want string }{
		{"hire", "hired"},
		{"order", "ordered"},
		{"created", "created"},
		{"birth", "born"},
		{"ship", "shipped"},
		{"publication", "published"},
		{"return", "returned"},
		{"due", ""},
		{"transaction", ""},
		{"effective", ""},
		{"apply", "applied"},
	} {
		if got := introspect.Participle(tc.word); got != tc.want {
			t.Errorf("participle(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

func TestKindOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		declared string
		want     introspect.Kind
	}{
		{"INTEGER", introspect.KindInteger},
		{"int(11)", introspect.KindInteger},
		{"bigint unsigned", introspect.KindInteger},
		{"character varying(100)", introspect.KindText},
		{"VARCHAR(20)", introspect.KindText},
		{"enum('a','b')", introspect.KindText},
		{"numeric(8,2)", introspect.KindNumeric},
		{"DECIMAL(8,2)", introspect.KindNumeric},
		{"double precision", introspect.KindReal},
		{"REAL", introspect.KindReal},
		{"DATE", introspect.KindDate},
		{"timestamp without time zone", introspect.KindTimestamp},
		{"timestamp(6) with time zone", introspect.KindTimestamp},
		{"DATETIME", introspect.KindTimestamp},
		{"boolean", introspect.KindBoolean},
		{"tinyint(1)", introspect.KindBoolean},
		{"uuid", introspect.KindUUID},
		{"", introspect.KindUnknown},
		{"bytea", introspect.KindOther},
		{"BLOB", introspect.KindOther},
		{"jsonb", introspect.KindOther},
		{"integer[]", introspect.KindOther},
		{"time without time zone", introspect.KindOther},
		{"interval", introspect.KindOther},
		{"point", introspect.KindOther},
	} {
		if got := introspect.KindOf(tc.declared); got != tc.want {
			t.Errorf("kindOf(%q) = %q, want %q", tc.declared, got, tc.want)
		}
	}
}
