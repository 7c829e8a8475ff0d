package introspect

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// mysqlReader reads the catalog of a MySQL or MariaDB database through
// information_schema, for the connection's DATABASE().
type mysqlReader struct{ db *sql.DB }

func (r mysqlReader) read(ctx context.Context) ([]*Table, map[string]int64, error) {
	var dbName sql.NullString
	if err := r.db.QueryRowContext(ctx, "SELECT DATABASE()").Scan(&dbName); err != nil {
		return nil, nil, fmt.Errorf("current database: %w", err)
	}
	if !dbName.Valid || dbName.String == "" {
		return nil, nil, errors.New("no database selected: name one in the DSN")
	}
	rows, err := r.db.QueryContext(ctx, `
SELECT TABLE_NAME, COALESCE(TABLE_ROWS, 0) FROM information_schema.TABLES
WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME`)
	if err != nil {
		return nil, nil, fmt.Errorf("list tables: %w", err)
	}
	byName := map[string]*Table{}
	estimates := map[string]int64{}
	var tables []*Table
	for rows.Next() {
		var (
			name string
			est  int64
		)
		if err := rows.Scan(&name, &est); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("list tables: %w", err)
		}
		t := &Table{Name: name}
		byName[name] = t
		estimates[name] = est
		tables = append(tables, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("list tables: %w", err)
	}
	if err := r.columns(ctx, byName); err != nil {
		return nil, nil, err
	}
	if err := r.keys(ctx, byName); err != nil {
		return nil, nil, err
	}
	if err := r.foreignKeys(ctx, byName); err != nil {
		return nil, nil, err
	}
	for _, t := range tables {
		finishTable(t)
	}
	return tables, estimates, nil
}

func (r mysqlReader) columns(ctx context.Context, byName map[string]*Table) error {
	rows, err := r.db.QueryContext(ctx, `
SELECT TABLE_NAME, COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE FROM information_schema.COLUMNS
WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`)
	if err != nil {
		return fmt.Errorf("list columns: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, name, dataType, colType, nullable string
		if err := rows.Scan(&table, &name, &dataType, &colType, &nullable); err != nil {
			return fmt.Errorf("list columns: %w", err)
		}
		t := byName[table]
		if t == nil {
			continue // a view
		}
		k := kindOf(colType)
		if k == KindOther || k == KindUnknown {
			k = kindOf(dataType)
		}
		t.Columns = append(t.Columns, &Column{Name: name, DeclaredType: colType, Kind: k, Nullable: nullable == "YES"})
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("list columns: %w", err)
	}
	return nil
}

// keys reads the primary keys and single-column unique indexes.
func (r mysqlReader) keys(ctx context.Context, byName map[string]*Table) error {
	rows, err := r.db.QueryContext(ctx, `
SELECT TABLE_NAME, INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS
WHERE TABLE_SCHEMA = DATABASE() AND NON_UNIQUE = 0 AND COLUMN_NAME IS NOT NULL
ORDER BY TABLE_NAME, INDEX_NAME = 'PRIMARY' DESC, INDEX_NAME, SEQ_IN_INDEX`)
	if err != nil {
		return fmt.Errorf("list keys: %w", err)
	}
	defer rows.Close()
	type index struct {
		table, name string
		cols        []string
	}
	var idxs []*index
	for rows.Next() {
		var table, name, col string
		if err := rows.Scan(&table, &name, &col); err != nil {
			return fmt.Errorf("list keys: %w", err)
		}
		if n := len(idxs); n == 0 || idxs[n-1].table != table || idxs[n-1].name != name {
			idxs = append(idxs, &index{table: table, name: name})
		}
		idxs[len(idxs)-1].cols = append(idxs[len(idxs)-1].cols, col)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("list keys: %w", err)
	}
	for _, ix := range idxs {
		t := byName[ix.table]
		switch {
		case t == nil:
		case ix.name == "PRIMARY":
			t.PrimaryKey = ix.cols
		case len(ix.cols) == 1 && !contains(t.Unique, ix.cols[0]):
			t.Unique = append(t.Unique, ix.cols[0])
		}
	}
	return nil
}

func (r mysqlReader) foreignKeys(ctx context.Context, byName map[string]*Table) error {
	rows, err := r.db.QueryContext(ctx, `
SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME
FROM information_schema.KEY_COLUMN_USAGE
WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME IS NOT NULL
ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`)
	if err != nil {
		return fmt.Errorf("list foreign keys: %w", err)
	}
	defer rows.Close()
	type fk struct {
		table, name string
		ForeignKey
	}
	var fks []*fk
	for rows.Next() {
		var table, name, col, ref, rcol string
		if err := rows.Scan(&table, &name, &col, &ref, &rcol); err != nil {
			return fmt.Errorf("list foreign keys: %w", err)
		}
		if n := len(fks); n == 0 || fks[n-1].table != table || fks[n-1].name != name {
			fks = append(fks, &fk{table: table, name: name, ForeignKey: ForeignKey{RefTable: ref}})
		}
		f := fks[len(fks)-1]
		f.Columns = append(f.Columns, col)
		f.RefColumns = append(f.RefColumns, rcol)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("list foreign keys: %w", err)
	}
	for _, f := range fks {
		if t := byName[f.table]; t != nil && byName[f.RefTable] != nil {
			t.ForeignKeys = append(t.ForeignKeys, f.ForeignKey)
		}
	}
	return nil
}
