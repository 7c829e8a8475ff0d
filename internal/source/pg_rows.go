package source

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// Reading a PostgreSQL result into a Result: the values are those pgx's
// database/sql driver returns, normalized as collect does, so that an
// answer does not change with the path it took. An answer may hold as
// many rows as the row cap; the common column types are decoded here
// without pgx's scan plans, and rows share their backing arrays, which
// took the client's CPU for a 1,000-row answer from 1.41x a plain pgx
// read's to 1.18x, and its allocations from 7.8k to 2.8k (docs/bench.md).

// pgBinary are the result types read in binary, as pgx's database/sql
// driver reads them; the others arrive as text.
var pgBinary = map[uint32]bool{
	pgtype.BoolOID: true, pgtype.ByteaOID: true, pgtype.CIDOID: true, pgtype.DateOID: true,
	pgtype.Float4OID: true, pgtype.Float8OID: true, pgtype.Int2OID: true, pgtype.Int4OID: true,
	pgtype.Int8OID: true, pgtype.OIDOID: true, pgtype.TimestampOID: true, pgtype.TimestamptzOID: true,
	pgtype.XIDOID: true,
}

func resultFormats(sd *pgconn.StatementDescription) []int16 {
	out := make([]int16, len(sd.Fields))
	for i, f := range sd.Fields {
		if pgBinary[f.DataTypeOID] {
			out[i] = pgtype.BinaryFormatCode
		}
	}
	return out
}

// pgCollect reads at most maxRows rows of rr, flagging a result with more
// as truncated; stop cancels the statement on the server when the rest
// takes long to drain. Values are what pgx's database/sql driver returns,
// normalized as collect does.
func pgCollect(stop func(), m *pgtype.Map, rr *pgconn.ResultReader, maxRows int) (*Result, error) {
	fds := rr.FieldDescriptions()
	res := &Result{}
	decode := make([]func([]byte) (any, error), len(fds))
	for i, fd := range fds {
		res.Columns = append(res.Columns, fd.Name)
		name := strconv.FormatUint(uint64(fd.DataTypeOID), 10)
		if t, ok := m.TypeForOID(fd.DataTypeOID); ok {
			name = strings.ToUpper(t.Name)
		}
		res.Types = append(res.Types, name)
		decode[i] = pgDecoder(m, fd)
	}
	var rows rowArena
	for rr.NextRow() {
		if len(res.Rows) == maxRows {
			res.Truncated = true
			t := time.AfterFunc(50*time.Millisecond, stop)
			rr.Close() //nolint:errcheck // the rest is abandoned, canceled if it takes long
			t.Stop()
			return res, nil
		}
		vals := rows.next(len(fds))
		for i, raw := range rr.Values() {
			if raw == nil {
				continue
			}
			v, err := decode[i](raw)
			if err != nil {
				rr.Close() //nolint:errcheck // the decoding error is the one to report
				return nil, fmt.Errorf("read column %s: %w", fds[i].Name, err)
			}
			vals[i] = normalize(v, res.Types[i])
		}
		res.Rows = append(res.Rows, vals)
	}
	if _, err := rr.Close(); err != nil {
		return nil, err
	}
	return res, nil
}

// pgDecoder returns the conversion pgx's database/sql driver applies to a
// column of fd's type (stdlib.Rows.Next), so that answers do not change
// with the path they took.
func pgDecoder(m *pgtype.Map, fd pgconn.FieldDescription) func([]byte) (any, error) {
	if d := pgFastDecoder(fd); d != nil {
		return d
	}
	return pgScanDecoder(m, fd)
}

// pgScanDecoder is pgDecoder through pgx's scan plan for every type.
func pgScanDecoder(m *pgtype.Map, fd pgconn.FieldDescription) func([]byte) (any, error) {
	switch fd.DataTypeOID {
	case pgtype.BoolOID:
		return scanAs[bool](m, fd, func(d bool) (any, error) { return d, nil })
	case pgtype.ByteaOID, pgtype.JSONOID, pgtype.JSONBOID, pgtype.XMLOID:
		return scanAs[[]byte](m, fd, func(d []byte) (any, error) { return d, nil })
	case pgtype.CIDOID, pgtype.OIDOID, pgtype.XIDOID:
		return scanAs[pgtype.Uint32](m, fd, func(d pgtype.Uint32) (any, error) { return d.Value() })
	case pgtype.DateOID:
		return scanAs[pgtype.Date](m, fd, func(d pgtype.Date) (any, error) { return d.Value() })
	case pgtype.Float4OID:
		return scanAs[float32](m, fd, func(d float32) (any, error) { return float64(d), nil })
	case pgtype.Float8OID:
		return scanAs[float64](m, fd, func(d float64) (any, error) { return d, nil })
	case pgtype.Int2OID:
		return scanAs[int16](m, fd, func(d int16) (any, error) { return int64(d), nil })
	case pgtype.Int4OID:
		return scanAs[int32](m, fd, func(d int32) (any, error) { return int64(d), nil })
	case pgtype.Int8OID:
		return scanAs[int64](m, fd, func(d int64) (any, error) { return d, nil })
	case pgtype.TimestampOID:
		return scanAs[pgtype.Timestamp](m, fd, func(d pgtype.Timestamp) (any, error) { return d.Value() })
	case pgtype.TimestamptzOID:
		return scanAs[pgtype.Timestamptz](m, fd, func(d pgtype.Timestamptz) (any, error) { return d.Value() })
	}
	return scanAs[string](m, fd, func(d string) (any, error) { return d, nil })
}

// scanAs scans a column into a T with pgx's plan for its type and format,
// then converts the T.
func scanAs[T any](m *pgtype.Map, fd pgconn.FieldDescription, conv func(T) (any, error)) func([]byte) (any, error) {
	var d T
	plan := m.PlanScan(fd.DataTypeOID, fd.Format, &d)
	return func(src []byte) (any, error) {
		var d T
		if err := plan.Scan(src, &d); err != nil {
			return nil, err
		}
		return conv(d)
	}
}

// pgFastDecoder returns, for the commonest column types in the format
// they are asked in (resultFormats), a conversion that gives the value
// pgDecoder's pgx scan would, without a scan plan and the value it
// allocates per call; nil for any other type or format.
func pgFastDecoder(fd pgconn.FieldDescription) func([]byte) (any, error) {
	fixed := func(size int, conv func([]byte) any) func([]byte) (any, error) {
		return func(src []byte) (any, error) {
			if len(src) != size {
				return nil, fmt.Errorf("invalid length for %d-byte value: %d", size, len(src))
			}
			return conv(src), nil
		}
	}
	if fd.Format == pgtype.TextFormatCode {
		switch fd.DataTypeOID {
		case pgtype.TextOID, pgtype.VarcharOID, pgtype.BPCharOID, pgtype.NameOID:
			return func(src []byte) (any, error) { return string(src), nil }
		}
		return nil
	}
	switch fd.DataTypeOID {
	case pgtype.BoolOID:
		return fixed(1, func(b []byte) any { return b[0] == 1 })
	case pgtype.Int2OID:
		return fixed(2, func(b []byte) any { return int64(int16(binary.BigEndian.Uint16(b))) })
	case pgtype.Int4OID:
		return fixed(4, func(b []byte) any { return int64(int32(binary.BigEndian.Uint32(b))) })
	case pgtype.Int8OID:
		return fixed(8, func(b []byte) any { return int64(binary.BigEndian.Uint64(b)) })
	case pgtype.Float4OID:
		return fixed(4, func(b []byte) any { return float64(math.Float32frombits(binary.BigEndian.Uint32(b))) })
	case pgtype.Float8OID:
		return fixed(8, func(b []byte) any { return math.Float64frombits(binary.BigEndian.Uint64(b)) })
	}
	return nil
}

// rowArena hands out the value slices of a result's rows from shared
// backing arrays, one allocation per rowArenaRows rows instead of one
// per row. Each row's slice is capped at its own length, so appending to
// one cannot write into the next.
type rowArena struct {
	free []any
}

// rowArenaRows is how many rows one backing array holds.
const rowArenaRows = 64

func (a *rowArena) next(n int) []any {
	if n == 0 {
		return []any{}
	}
	if len(a.free) < n {
		a.free = make([]any, n*rowArenaRows)
	}
	row := a.free[:n:n]
	a.free = a.free[n:]
	return row
}
