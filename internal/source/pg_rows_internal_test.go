package source

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestPostgresFastDecoders: each type pgFastDecoder reads without pgx's
// scan plan gives, for values at its edges, what the scan plan gives
// (pgScanDecoder), and both refuse a value of the wrong length; a type or
// format it does not cover is left to the scan plan.
func TestPostgresFastDecoders(t *testing.T) {
	m := pgtype.NewMap()
	for _, tc := range []struct {
		name   string
		oid    uint32
		format int16
		values []any
	}{
		{"bool", pgtype.BoolOID, pgtype.BinaryFormatCode, []any{true, false}},
		{"int2", pgtype.Int2OID, pgtype.BinaryFormatCode, []any{int16(0), int16(-1), int16(math.MinInt16), int16(math.MaxInt16)}},
		{"int4", pgtype.Int4OID, pgtype.BinaryFormatCode, []any{int32(7), int32(-300), int32(math.MinInt32), int32(math.MaxInt32)}},
		{"int8", pgtype.Int8OID, pgtype.BinaryFormatCode, []any{int64(255), int64(-256), int64(math.MinInt64), int64(math.MaxInt64)}},
		{"float4", pgtype.Float4OID, pgtype.BinaryFormatCode, []any{float32(1.5), float32(-0.1), float32(math.Inf(1)), float32(math.MaxFloat32)}},
		{"float8", pgtype.Float8OID, pgtype.BinaryFormatCode, []any{0.1, -1e300, math.Inf(-1), math.SmallestNonzeroFloat64}},
		{"text", pgtype.TextOID, pgtype.TextFormatCode, []any{"", "naïve", "a\x00b"}},
		{"varchar", pgtype.VarcharOID, pgtype.TextFormatCode, []any{"x"}},
		{"bpchar", pgtype.BPCharOID, pgtype.TextFormatCode, []any{"ab  "}},
		{"name", pgtype.NameOID, pgtype.TextFormatCode, []any{"pg_class"}},
	} {
		fd := pgconn.FieldDescription{Name: tc.name, DataTypeOID: tc.oid, Format: tc.format}
		fast, slow := pgFastDecoder(fd), pgScanDecoder(m, fd)
		if fast == nil {
			t.Errorf("%s: no fast decoder", tc.name)
			continue
		}
		for _, v := range tc.values {
			raw, err := m.Encode(tc.oid, tc.format, v, nil)
			if err != nil {
				t.Fatalf("%s: encode %v: %v", tc.name, v, err)
			}
			if raw == nil {
				raw = []byte{} // an empty value, as the server sends it (nil is NULL)
			}
			got, err := fast(raw)
			if err != nil {
				t.Errorf("%s %v: %v", tc.name, v, err)
				continue
			}
			want, err := slow(raw)
			if err != nil {
				t.Fatalf("%s %v: the scan plan: %v", tc.name, v, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s %v (-scan plan +fast):\n%s", tc.name, v, diff)
			}
		}
		if tc.format == pgtype.BinaryFormatCode {
			if _, err := fast(make([]byte, 3)); err == nil {
				t.Errorf("%s: a 3-byte value read without error", tc.name)
			}
		}
	}
	for _, fd := range []pgconn.FieldDescription{
		{DataTypeOID: pgtype.Int4OID, Format: pgtype.TextFormatCode},
		{DataTypeOID: pgtype.TextOID, Format: pgtype.BinaryFormatCode},
		{DataTypeOID: pgtype.NumericOID, Format: pgtype.TextFormatCode},
		{DataTypeOID: pgtype.DateOID, Format: pgtype.BinaryFormatCode},
	} {
		if pgFastDecoder(fd) != nil {
			t.Errorf("OID %d in format %d has a fast decoder", fd.DataTypeOID, fd.Format)
		}
	}
}

// TestRowArena: rows handed out share backing arrays but not elements,
// and appending to one leaves the next alone.
func TestRowArena(t *testing.T) {
	var a rowArena
	var rows [][]any
	for i := range 3*rowArenaRows + 1 {
		r := a.next(2)
		r[0], r[1] = i, -i
		rows = append(rows, r)
	}
	_ = append(rows[0], "more")
	for i, r := range rows {
		if len(r) != 2 || cap(r) != 2 || r[0] != i || r[1] != -i {
			t.Fatalf("row %d: %v (cap %d)", i, r, cap(r))
		}
	}
	if r := a.next(0); r == nil || len(r) != 0 {
		t.Errorf("an empty row: %#v", r)
	}
}
