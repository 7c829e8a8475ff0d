package introspect

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// sqliteReader reads the catalog of a SQLite database through
// sqlite_master and the pragma table-valued functions.
type sqliteReader struct{ db *sql.DB }

func (r sqliteReader) read(ctx context.Context) ([]*Table, map[string]int64, error) {
	names, err := r.tableNames(ctx)
	if err != nil {
		return nil, nil, err
	}
	var tables []*Table
	for _, name := range names {
		t := &Table{Name: name}
		if err := r.columns(ctx, t); err != nil {
			return nil, nil, err
		}
		if err := r.foreignKeys(ctx, t); err != nil {
			return nil, nil, err
		}
		if err := r.unique(ctx, t); err != nil {
			return nil, nil, err
		}
		finishTable(t)
		tables = append(tables, t)
	}
	return tables, nil, nil
}

// tableNames lists ordinary tables: not sqlite_%, not virtual tables and
// not the shadow tables a virtual table keeps (name_content, name_data…).
func (r sqliteReader) tableNames(ctx context.Context) ([]string, error) {
	rows, err := r.db.QueryContext(ctx,
		`SELECT name, COALESCE(sql, '') FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	var names, virtual []string
	for rows.Next() {
		var name, ddl string
		if err := rows.Scan(&name, &ddl); err != nil {
			return nil, fmt.Errorf("list tables: %w", err)
		}
		if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(ddl)), "CREATE VIRTUAL") {
			virtual = append(virtual, name)
			continue
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	out := names[:0]
	for _, n := range names {
		shadow := false
		for _, v := range virtual {
			if strings.HasPrefix(n, v+"_") {
				shadow = true
			}
		}
		if !shadow {
			out = append(out, n)
		}
	}
	return out, nil
}

func (r sqliteReader) columns(ctx context.Context, t *Table) error {
	rows, err := r.db.QueryContext(ctx, `SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid`, t.Name)
	if err != nil {
		return fmt.Errorf("columns of %s: %w", t.Name, err)
	}
	defer rows.Close()
	type pkCol struct {
		name string
		pos  int
	}
	var pk []pkCol
	for rows.Next() {
		var (
			name, typ string
			notNull   bool
			pkPos     int
		)
		if err := rows.Scan(&name, &typ, &notNull, &pkPos); err != nil {
			return fmt.Errorf("columns of %s: %w", t.Name, err)
		}
		t.Columns = append(t.Columns, &Column{Name: name, DeclaredType: typ, Kind: kindOf(typ), Nullable: !notNull})
		if pkPos > 0 {
			pk = append(pk, pkCol{name, pkPos})
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("columns of %s: %w", t.Name, err)
	}
	for pos := 1; pos <= len(pk); pos++ {
		for _, p := range pk {
			if p.pos == pos {
				t.PrimaryKey = append(t.PrimaryKey, p.name)
			}
		}
	}
	return nil
}

// foreignKeys reads declared foreign keys. A reference without columns
// ("REFERENCES customers") means the referenced table's primary key.
func (r sqliteReader) foreignKeys(ctx context.Context, t *Table) error {
	rows, err := r.db.QueryContext(ctx, `SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq`, t.Name)
	if err != nil {
		return fmt.Errorf("foreign keys of %s: %w", t.Name, err)
	}
	defer rows.Close()
	byID := map[int]*ForeignKey{}
	var order []int
	for rows.Next() {
		var (
			id        int
			ref, from string
			to        sql.NullString
		)
		if err := rows.Scan(&id, &ref, &from, &to); err != nil {
			return fmt.Errorf("foreign keys of %s: %w", t.Name, err)
		}
		fk := byID[id]
		if fk == nil {
			fk = &ForeignKey{RefTable: ref}
			byID[id] = fk
			order = append(order, id)
		}
		fk.Columns = append(fk.Columns, from)
		fk.RefColumns = append(fk.RefColumns, to.String)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("foreign keys of %s: %w", t.Name, err)
	}
	rows.Close()
	for _, id := range order {
		fk := byID[id]
		if fk.RefColumns[0] == "" {
			pk, err := r.primaryKey(ctx, fk.RefTable)
			if err != nil {
				return err
			}
			if len(pk) != len(fk.Columns) {
				continue // a dangling or malformed reference
			}
			fk.RefColumns = pk
		}
		t.ForeignKeys = append(t.ForeignKeys, *fk)
	}
	return nil
}

func (r sqliteReader) primaryKey(ctx context.Context, table string) ([]string, error) {
	ref := &Table{Name: table}
	if err := r.columns(ctx, ref); err != nil {
		return nil, err
	}
	return ref.PrimaryKey, nil
}

// unique finds columns with a single-column, non-partial unique index
// (UNIQUE constraints are unique indexes in SQLite).
func (r sqliteReader) unique(ctx context.Context, t *Table) error {
	rows, err := r.db.QueryContext(ctx, `SELECT name, origin FROM pragma_index_list(?) WHERE "unique" = 1 AND partial = 0 ORDER BY name`, t.Name)
	if err != nil {
		return fmt.Errorf("indexes of %s: %w", t.Name, err)
	}
	var indexes []string
	for rows.Next() {
		var name, origin string
		if err := rows.Scan(&name, &origin); err != nil {
			rows.Close()
			return fmt.Errorf("indexes of %s: %w", t.Name, err)
		}
		if origin != "pk" {
			indexes = append(indexes, name)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("indexes of %s: %w", t.Name, err)
	}
	for _, idx := range indexes {
		var cols []sql.NullString
		irows, err := r.db.QueryContext(ctx, `SELECT name FROM pragma_index_info(?) ORDER BY seqno`, idx)
		if err != nil {
			return fmt.Errorf("index %s: %w", idx, err)
		}
		for irows.Next() {
			var c sql.NullString
			if err := irows.Scan(&c); err != nil {
				irows.Close()
				return fmt.Errorf("index %s: %w", idx, err)
			}
			cols = append(cols, c)
		}
		irows.Close()
		if err := irows.Err(); err != nil {
			return fmt.Errorf("index %s: %w", idx, err)
		}
		if len(cols) == 1 && cols[0].Valid && !contains(t.Unique, cols[0].String) {
			t.Unique = append(t.Unique, cols[0].String)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
