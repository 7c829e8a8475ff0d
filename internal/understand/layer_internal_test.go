package understand

import (
	"testing"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/valueindex"
)

// TestLayerKeepsModelOrder: values probes found in several columns are
// added to the index in the model's order of their columns, whichever
// probe ended first, as an index of every value holds them (where nothing
// in a question tells the columns apart, the first is read); the stored
// values they were added to are left as they were.
func TestLayerKeepsModelOrder(t *testing.T) {
	spec := "source: two\nentities:\n"
	for _, name := range []string{"ships", "ports"} { // two tables, each with a name column of stored values
		spec += "  - name: " + name + "\n    key: id\n    columns:\n      - {name: id, role: id, type: integer}\n" +
			"      - {name: name, role: name, type: text, values: {source: database}}\n"
	}
	m, err := model.Parse("two.yaml", []byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	ships, ports := m.Entity("ships").Column("name"), m.Entity("ports").Column("name")
	base := valueindex.New()
	base.Seal()
	vx := &storedValues{idx: base, pending: map[*model.Column]map[string]bool{ships: {}, ports: {}}}
	nvx := vx.with([]columnValueSet{
		{col: ports, vals: []string{"Aurora"}, rows: []int64{1}},
		{col: ships, vals: []string{"Aurora"}, rows: []int64{2}},
	})
	tok := text.Tokenize(text.Normalize("Aurora"))
	hits := nvx.idx.Exact([]string{tok[0].Text}, []string{text.ValueStem(tok[0].Text)}, 0)[1]
	var got []string
	for _, id := range hits.IDs {
		got = append(got, nvx.idx.Entry(id).Column.Entity().Name)
	}
	if len(got) != 2 || got[0] != "ships" || got[1] != "ports" {
		t.Errorf("Aurora found in %v, want [ships ports] (the model's order)", got)
	}
	if !nvx.pending[ships]["Aurora"] || !nvx.pending[ports]["Aurora"] {
		t.Errorf("the layer's pending values %v lack what it added", nvx.pending)
	}
	if len(vx.pending[ships]) != 0 || len(vx.pending[ports]) != 0 || len(base.Exact([]string{"aurora"}, []string{"aurora"}, 0)) != 0 {
		t.Error("adding a layer changed the stored values it was made from")
	}
}
