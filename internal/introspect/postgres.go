package introspect

import (
	"context"
	"database/sql"
	"fmt"
)

// postgresReader reads the catalog of a PostgreSQL database through
// pg_catalog, limited to the schemas on the connection's search_path.
type postgresReader struct {
	db *sql.DB
	// oids maps the oid of every table read to its name, so that foreign
	// keys to tables outside the search path are dropped.
	oids map[int64]string
}

func (r *postgresReader) read(ctx context.Context) ([]*Table, map[string]int64, error) {
	rows, err := r.db.QueryContext(ctx, `
SELECT c.oid::bigint, c.relname, GREATEST(c.reltuples, 0)::bigint
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname = ANY (current_schemas(false))
ORDER BY array_position(current_schemas(false), n.nspname), c.relname`)
	if err != nil {
		return nil, nil, fmt.Errorf("list tables: %w", err)
	}
	type rel struct {
		oid  int64
		name string
	}
	var rels []rel
	estimates := map[string]int64{}
	r.oids = map[int64]string{}
	for rows.Next() {
		var (
			rl  rel
			est int64
		)
		if err := rows.Scan(&rl.oid, &rl.name, &est); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("list tables: %w", err)
		}
		if _, shadowed := estimates[rl.name]; shadowed {
			continue // an earlier schema on the search path has a table of this name
		}
		estimates[rl.name] = est
		r.oids[rl.oid] = rl.name
		rels = append(rels, rl)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("list tables: %w", err)
	}
	var tables []*Table
	for _, rl := range rels {
		t := &Table{Name: rl.name}
		if err := r.columns(ctx, rl.oid, t); err != nil {
			return nil, nil, err
		}
		if err := r.keys(ctx, rl.oid, t); err != nil {
			return nil, nil, err
		}
		if err := r.foreignKeys(ctx, rl.oid, t); err != nil {
			return nil, nil, err
		}
		finishTable(t)
		tables = append(tables, t)
	}
	return tables, estimates, nil
}

func (r *postgresReader) columns(ctx context.Context, oid int64, t *Table) error {
	rows, err := r.db.QueryContext(ctx, `
SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), ty.typtype = 'e', a.attnotnull
FROM pg_catalog.pg_attribute a
JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
WHERE a.attrelid = $1::bigint::oid AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attnum`, oid)
	if err != nil {
		return fmt.Errorf("columns of %s: %w", t.Name, err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			name, typ     string
			enum, notNull bool
		)
		if err := rows.Scan(&name, &typ, &enum, &notNull); err != nil {
			return fmt.Errorf("columns of %s: %w", t.Name, err)
		}
		k := kindOf(typ)
		if enum {
			k = KindText
		}
		t.Columns = append(t.Columns, &Column{Name: name, DeclaredType: typ, Kind: k, Nullable: !notNull})
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("columns of %s: %w", t.Name, err)
	}
	return nil
}

// keys reads the primary key and single-column unique indexes (unique
// constraints are indexes too); partial and expression indexes do not count.
func (r *postgresReader) keys(ctx context.Context, oid int64, t *Table) error {
	rows, err := r.db.QueryContext(ctx, `
SELECT i.indexrelid::bigint, i.indisprimary, i.indnkeyatts, a.attname
FROM pg_catalog.pg_index i
CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
WHERE i.indrelid = $1::bigint::oid AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL
  AND k.ord <= i.indnkeyatts
ORDER BY i.indisprimary DESC, i.indexrelid, k.ord`, oid)
	if err != nil {
		return fmt.Errorf("keys of %s: %w", t.Name, err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			idx     int64
			primary bool
			nkeys   int
			col     string
		)
		if err := rows.Scan(&idx, &primary, &nkeys, &col); err != nil {
			return fmt.Errorf("keys of %s: %w", t.Name, err)
		}
		switch {
		case primary:
			t.PrimaryKey = append(t.PrimaryKey, col)
		case nkeys == 1 && !contains(t.Unique, col):
			t.Unique = append(t.Unique, col)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("keys of %s: %w", t.Name, err)
	}
	return nil
}

func (r *postgresReader) foreignKeys(ctx context.Context, oid int64, t *Table) error {
	rows, err := r.db.QueryContext(ctx, `
SELECT co.oid::bigint, co.confrelid::bigint, a.attname, ra.attname
FROM pg_catalog.pg_constraint co
CROSS JOIN LATERAL unnest(co.conkey, co.confkey) WITH ORDINALITY AS k(col, refcol, ord)
JOIN pg_catalog.pg_attribute a ON a.attrelid = co.conrelid AND a.attnum = k.col
JOIN pg_catalog.pg_attribute ra ON ra.attrelid = co.confrelid AND ra.attnum = k.refcol
WHERE co.conrelid = $1::bigint::oid AND co.contype = 'f'
ORDER BY co.oid, k.ord`, oid)
	if err != nil {
		return fmt.Errorf("foreign keys of %s: %w", t.Name, err)
	}
	defer rows.Close()
	var (
		cur   *ForeignKey
		curID int64 = -1
	)
	flush := func() {
		if cur != nil && cur.RefTable != "" {
			t.ForeignKeys = append(t.ForeignKeys, *cur)
		}
	}
	for rows.Next() {
		var (
			id, ref   int64
			col, rcol string
		)
		if err := rows.Scan(&id, &ref, &col, &rcol); err != nil {
			return fmt.Errorf("foreign keys of %s: %w", t.Name, err)
		}
		if id != curID {
			flush()
			cur, curID = &ForeignKey{RefTable: r.oids[ref]}, id
		}
		cur.Columns = append(cur.Columns, col)
		cur.RefColumns = append(cur.RefColumns, rcol)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("foreign keys of %s: %w", t.Name, err)
	}
	flush()
	return nil
}
