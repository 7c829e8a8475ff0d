package server_test

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/store"
)

type openAPIDoc struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Schemas map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"schemas"`
	} `json:"components"`
}

func loadOpenAPI(t *testing.T) openAPIDoc {
	t.Helper()
	data, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var d openAPIDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestOpenAPIRoutes keeps the document's operations equal to the routes
// the server registers.
func TestOpenAPIRoutes(t *testing.T) {
	src, err := os.ReadFile("server.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`"(GET|POST|PUT|DELETE) (/[^"]*)"`)
	var routes []string
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		path := strings.ReplaceAll(m[2], "{key...}", "{key}")
		routes = append(routes, m[1]+" "+path)
	}
	var documented []string
	for path, ops := range loadOpenAPI(t).Paths {
		for method := range ops {
			documented = append(documented, strings.ToUpper(method)+" "+path)
		}
	}
	sort.Strings(routes)
	sort.Strings(documented)
	routes = dedupe(routes)
	if d := cmp.Diff(documented, routes); d != "" {
		t.Errorf("openapi.json and the routes differ (-documented +routes):\n%s", d)
	}
}

func dedupe(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// TestOpenAPISchemas keeps each schema's properties equal to the JSON
// fields of the Go type it documents.
func TestOpenAPISchemas(t *testing.T) {
	doc := loadOpenAPI(t)
	types := map[string]any{
		"Ask": conversation.Ask{}, "Message": conversation.Message{}, "Reply": conversation.Answer{},
		"Result": conversation.Result{}, "View": conversation.View{}, "Turn": conversation.Turn{},
		"Preference": conversation.Preference{}, "ErrorBody": conversation.ErrorBody{},
		"Summary": conversation.Summary{}, "List": conversation.List{},
		"AuditPage": conversation.AuditPage{}, "AuditRecord": store.AuditRecord{},
		"Understood": engine.Understood{}, "Clarification": engine.Clarification{}, "Option": engine.Option{},
		"Preview": engine.Preview{}, "Answer": engine.Answer{}, "Column": plan.Column{}, "Chart": plan.Chart{},
		"Assumption": clarify.Assumption{}, "Alternative": clarify.Alternative{}, "Suggestion": model.Suggestion{},
	}
	for name, v := range types {
		s, ok := doc.Components.Schemas[name]
		if !ok {
			t.Errorf("schema %s is not documented", name)
			continue
		}
		var documented, fields []string
		for p := range s.Properties {
			documented = append(documented, p)
		}
		rt := reflect.TypeOf(v)
		for i := 0; i < rt.NumField(); i++ {
			tag := rt.Field(i).Tag.Get("json")
			if tag == "" || tag == "-" {
				continue
			}
			fields = append(fields, strings.Split(tag, ",")[0])
		}
		sort.Strings(documented)
		sort.Strings(fields)
		if d := cmp.Diff(documented, fields); d != "" {
			t.Errorf("schema %s differs from %s (-documented +Go):\n%s", name, rt, d)
		}
	}
}

// TestOpenAPISources keeps the documented fields of a source in GET
// /v1/sources equal to those the server sends.
func TestOpenAPISources(t *testing.T) {
	var op struct {
		Responses map[string]struct {
			Content map[string]struct {
				Schema struct {
					Properties struct {
						Sources struct {
							Items struct {
								Properties map[string]json.RawMessage `json:"properties"`
							} `json:"items"`
						} `json:"sources"`
					} `json:"properties"`
				} `json:"schema"`
			} `json:"content"`
		} `json:"responses"`
	}
	if err := json.Unmarshal(loadOpenAPI(t).Paths["/v1/sources"]["get"], &op); err != nil {
		t.Fatal(err)
	}
	var documented []string
	for p := range op.Responses["200"].Content["application/json"].Schema.Properties.Sources.Items.Properties {
		documented = append(documented, p)
	}
	var body struct {
		Sources []map[string]json.RawMessage `json:"sources"`
	}
	if st := start(t).do("GET", "/v1/sources", "", nil, &body); st != 200 || len(body.Sources) == 0 {
		t.Fatalf("GET /v1/sources: %d, %d sources", st, len(body.Sources))
	}
	// the test's sources have no description, and only an unavailable
	// source has an error
	sent := []string{"description", "error"}
	for k := range body.Sources[0] {
		sent = append(sent, k)
	}
	sort.Strings(documented)
	sort.Strings(sent)
	if d := cmp.Diff(documented, sent); d != "" {
		t.Errorf("a source in GET /v1/sources differs from openapi.json (-documented +sent):\n%s", d)
	}
}
