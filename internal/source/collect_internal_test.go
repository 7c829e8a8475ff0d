package source

import "testing"

// TestCellCopiesLentBytes: a []byte the driver lends a cell is copied
// before the driver reuses its buffer, and the value is normalized as
// for any other path (a NUMERIC read as text becomes a number).
func TestCellCopiesLentBytes(t *testing.T) {
	lent := []byte("mauve")
	c := cell{typ: "VARCHAR"}
	if err := c.Scan(lent); err != nil {
		t.Fatal(err)
	}
	copy(lent, "xxxxx")
	if c.v != "mauve" {
		t.Errorf("after the driver reused its buffer: %#v, want \"mauve\"", c.v)
	}
	n := cell{typ: "NUMERIC"}
	if err := n.Scan([]byte("2.5")); err != nil || n.v != 2.5 {
		t.Errorf("NUMERIC 2.5: %#v, %v", n.v, err)
	}
	if err := n.Scan(nil); err != nil || n.v != nil {
		t.Errorf("NULL: %#v, %v", n.v, err)
	}
}
