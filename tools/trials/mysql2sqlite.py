#!/usr/bin/env python3
"""Copy one MariaDB/MySQL database into a new SQLite file.

The schema is read from information_schema (columns, primary keys, unique
keys, foreign keys) and rewritten with SQLite type names:

    tinyint/smallint/mediumint/int/bigint/year/bit -> INTEGER
    decimal/numeric                                -> NUMERIC
    float/double/real                              -> REAL
    char/varchar/*text/enum/set                    -> TEXT
    date -> DATE, datetime/timestamp -> DATETIME, time -> TIME
    *blob/binary/varbinary                         -> BLOB

Rows are read with `SELECT JSON_ARRAY(...)` through the `mysql` command-line
client (Python standard library only, no driver), ordered by primary key
(or by every column when there is none) so that the output is deterministic.

With --rows-from-sqlite FILE the rows are instead copied from the tables of
the same names in an existing SQLite file (used when a project publishes its
data only as a SQLite file but its declared schema only as MySQL DDL).

Usage:
  mysql2sqlite.py --db trials_tmp --out x.sqlite [--tables t1,t2,...]
                  [--rows-from-sqlite src.db]
"""
import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
from decimal import Decimal

HOST = os.environ.get("TRIALS_MYSQL_HOST", "127.0.0.1")
PORT = os.environ.get("TRIALS_MYSQL_PORT", "3306")
USER = os.environ.get("TRIALS_MYSQL_USER", "root")

# SQLite keywords (https://sqlite.org/lang_keywords.html); names that are
# keywords, or are not plain identifiers, get double quotes.
SQLITE_KEYWORDS = set("""
ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC ATTACH AUTOINCREMENT
BEFORE BEGIN BETWEEN BY CASCADE CASE CAST CHECK COLLATE COLUMN COMMIT CONFLICT
CONSTRAINT CREATE CROSS CURRENT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP
DATABASE DEFAULT DEFERRABLE DEFERRED DELETE DESC DETACH DISTINCT DO DROP EACH
ELSE END ESCAPE EXCEPT EXCLUDE EXCLUSIVE EXISTS EXPLAIN FAIL FILTER FIRST
FOLLOWING FOR FOREIGN FROM FULL GENERATED GLOB GROUP GROUPS HAVING IF IGNORE
IMMEDIATE IN INDEX INDEXED INITIALLY INNER INSERT INSTEAD INTERSECT INTO IS
ISNULL JOIN KEY LAST LEFT LIKE LIMIT MATCH MATERIALIZED NATURAL NO NOT NOTHING
NOTNULL NULL NULLS OF OFFSET ON OR ORDER OTHERS OUTER OVER PARTITION PLAN
PRAGMA PRECEDING PRIMARY QUERY RAISE RANGE RECURSIVE REFERENCES REGEXP REINDEX
RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK ROW ROWS SAVEPOINT
SELECT SET TABLE TEMP TEMPORARY THEN TIES TO TRANSACTION TRIGGER UNBOUNDED UNION
UNIQUE UPDATE USING VACUUM VALUES VIEW VIRTUAL WHEN WHERE WINDOW WITH WITHOUT
""".split())

TYPE_MAP = {
    "tinyint": "INTEGER", "smallint": "INTEGER", "mediumint": "INTEGER",
    "int": "INTEGER", "integer": "INTEGER", "bigint": "INTEGER",
    "year": "INTEGER", "bit": "INTEGER",
    "decimal": "NUMERIC", "numeric": "NUMERIC",
    "float": "REAL", "double": "REAL", "real": "REAL",
    "char": "TEXT", "varchar": "TEXT", "tinytext": "TEXT", "text": "TEXT",
    "mediumtext": "TEXT", "longtext": "TEXT", "enum": "TEXT", "set": "TEXT",
    "date": "DATE", "datetime": "DATETIME", "timestamp": "DATETIME",
    "time": "TIME",
    "tinyblob": "BLOB", "blob": "BLOB", "mediumblob": "BLOB",
    "longblob": "BLOB", "binary": "BLOB", "varbinary": "BLOB",
}


def q(name):
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and name.upper() not in SQLITE_KEYWORDS:
        return name
    return '"' + name.replace('"', '""') + '"'


def mq(name):
    """Quote a MariaDB identifier."""
    return "`" + name.replace("`", "``") + "`"


def mysql_cmd():
    return ["mysql", "-h", HOST, "-P", PORT, "-u", USER,
            "--default-character-set=utf8mb4", "-N", "-B", "--raw"]


def mysql_json_rows(query):
    """Yield one decoded JSON array per row of `query`."""
    proc = subprocess.Popen(mysql_cmd() + ["-e", query], stdout=subprocess.PIPE,
                            text=True, encoding="utf-8")
    for line in proc.stdout:
        line = line.rstrip("\n")
        if line:
            yield json.loads(line, parse_float=Decimal)
    if proc.wait() != 0:
        sys.exit(f"mysql2sqlite: query failed: {query[:200]}")


def sql_str(s):
    return "'" + s.replace("'", "''") + "'"


def read_schema(db, order):
    dbq = sql_str(db)
    tables = [r[0] for r in mysql_json_rows(
        f"SELECT JSON_ARRAY(TABLE_NAME) FROM information_schema.TABLES "
        f"WHERE TABLE_SCHEMA={dbq} AND TABLE_TYPE='BASE TABLE' ORDER BY TABLE_NAME")]
    if order:
        missing = [t for t in order if t not in tables]
        extra = [t for t in tables if t not in order]
        if missing:
            sys.exit(f"mysql2sqlite: tables not in {db}: {missing}")
        tables = order + extra
    cols = {t: [] for t in tables}
    for t, name, dtype, ctype, nullable, default in mysql_json_rows(
            f"SELECT JSON_ARRAY(TABLE_NAME, COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT) "
            f"FROM information_schema.COLUMNS WHERE TABLE_SCHEMA={dbq} "
            f"ORDER BY TABLE_NAME, ORDINAL_POSITION"):
        if t in cols:
            cols[t].append(dict(name=name, dtype=dtype.lower(), ctype=ctype,
                                notnull=(nullable == "NO"), default=default))
    keys = {}  # (table, constraint) -> dict
    for t, cname, ctype in mysql_json_rows(
            f"SELECT JSON_ARRAY(TABLE_NAME, CONSTRAINT_NAME, CONSTRAINT_TYPE) "
            f"FROM information_schema.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA={dbq}"):
        keys[(t, cname)] = dict(type=ctype, cols=[], ref_table=None, ref_cols=[],
                                on_delete=None, on_update=None, name=cname)
    for t, cname, col, rtable, rcol in mysql_json_rows(
            f"SELECT JSON_ARRAY(TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, "
            f"REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME) "
            f"FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA={dbq} "
            f"ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION"):
        k = keys.get((t, cname))
        if k is None:
            continue
        k["cols"].append(col)
        if rtable:
            k["ref_table"] = rtable
            k["ref_cols"].append(rcol)
    for t, cname, upd, dele in mysql_json_rows(
            f"SELECT JSON_ARRAY(TABLE_NAME, CONSTRAINT_NAME, UPDATE_RULE, DELETE_RULE) "
            f"FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA={dbq}"):
        k = keys.get((t, cname))
        if k:
            k["on_update"], k["on_delete"] = upd, dele
    # Foreign keys in the order MariaDB created them (their names are
    # usually t_ibfk_1, t_ibfk_2 ... or user-chosen); sort by the column
    # position of their first column for a stable, readable order.
    schema = []
    for t in tables:
        pos = {c["name"]: i for i, c in enumerate(cols[t])}
        tk = [k for (tt, _), k in keys.items() if tt == t]
        pk = next((k["cols"] for k in tk if k["type"] == "PRIMARY KEY"), [])
        uniques = sorted((k["cols"] for k in tk if k["type"] == "UNIQUE"),
                         key=lambda cs: [pos[c] for c in cs])
        fks = sorted((k for k in tk if k["type"] == "FOREIGN KEY"),
                     key=lambda k: ([pos[c] for c in k["cols"]], k["name"]))
        schema.append(dict(name=t, cols=cols[t], pk=pk, uniques=uniques, fks=fks))
    return schema


def literal_default(d):
    """MariaDB >= 10.2 reports literal defaults as quoted strings or numbers;
    expressions (current_timestamp() etc.) and NULL are left out."""
    if d is None or d == "NULL":
        return None
    if re.fullmatch(r"-?\d+(\.\d+)?", d):
        return d
    if len(d) >= 2 and d[0] == "'" and d[-1] == "'":
        return d
    return None


def create_sql(t):
    lines = []
    for c in t["cols"]:
        typ = TYPE_MAP.get(c["dtype"])
        if typ is None:
            sys.exit(f"mysql2sqlite: no SQLite type for {t['name']}.{c['name']} {c['ctype']}")
        s = f"  {q(c['name'])} {typ}"
        if c["notnull"]:
            s += " NOT NULL"
        d = literal_default(c["default"])
        if d is not None:
            s += f" DEFAULT {d}"
        lines.append(s)
    if t["pk"]:
        lines.append("  PRIMARY KEY (" + ", ".join(q(c) for c in t["pk"]) + ")")
    for u in t["uniques"]:
        lines.append("  UNIQUE (" + ", ".join(q(c) for c in u) + ")")
    for fk in t["fks"]:
        s = ("  FOREIGN KEY (" + ", ".join(q(c) for c in fk["cols"]) + ") REFERENCES "
             + q(fk["ref_table"]) + " (" + ", ".join(q(c) for c in fk["ref_cols"]) + ")")
        for word, rule in (("DELETE", fk["on_delete"]), ("UPDATE", fk["on_update"])):
            if rule in ("CASCADE", "SET NULL", "SET DEFAULT"):
                s += f" ON {word} {rule}"
        lines.append(s)
    return f"CREATE TABLE {q(t['name'])} (\n" + ",\n".join(lines) + "\n);"


def order_cols(t):
    return t["pk"] if t["pk"] else [c["name"] for c in t["cols"]]


def copy_from_mysql(conn, db, t):
    exprs = []
    affinity = []
    for c in t["cols"]:
        typ = TYPE_MAP[c["dtype"]]
        exprs.append(f"HEX({mq(c['name'])})" if typ == "BLOB" else mq(c["name"]))
        affinity.append(typ)
    query = (f"SELECT JSON_ARRAY({', '.join(exprs)}) FROM {mq(db)}.{mq(t['name'])} "
             f"ORDER BY {', '.join(mq(c) for c in order_cols(t))}")
    ins = (f"INSERT INTO {q(t['name'])} VALUES (" + ", ".join("?" * len(t["cols"])) + ")")

    def rows():
        for r in mysql_json_rows(query):
            out = []
            for v, typ in zip(r, affinity):
                if v is None:
                    out.append(None)
                elif typ == "BLOB":
                    out.append(bytes.fromhex(v))
                elif isinstance(v, Decimal):
                    # NUMERIC affinity turns "21000.00" into 21000 and
                    # "379.99" into 379.99, exactly as SQLite would for a literal.
                    out.append(str(v) if typ == "NUMERIC" else float(v))
                elif isinstance(v, bool):
                    out.append(int(v))
                else:
                    out.append(v)
            yield out

    conn.executemany(ins, rows())


def copy_from_sqlite(conn, t):
    names = ", ".join(q(c["name"]) for c in t["cols"])
    conn.execute(f"INSERT INTO main.{q(t['name'])} ({names}) SELECT {names} FROM src.{q(t['name'])} "
                 f"ORDER BY {', '.join(q(c) for c in order_cols(t))}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--tables", default="")
    ap.add_argument("--rows-from-sqlite")
    a = ap.parse_args()
    order = [x for x in a.tables.split(",") if x]
    schema = read_schema(a.db, order)
    if not schema:
        sys.exit(f"mysql2sqlite: no tables in {a.db}")
    if os.path.exists(a.out):
        os.remove(a.out)
    conn = sqlite3.connect(a.out, isolation_level=None)
    conn.execute("PRAGMA foreign_keys=OFF")
    conn.execute("BEGIN")
    for t in schema:
        conn.execute(create_sql(t))
    if a.rows_from_sqlite:
        conn.execute("COMMIT")
        conn.execute("ATTACH DATABASE ? AS src", (a.rows_from_sqlite,))
        conn.execute("BEGIN")
        for t in schema:
            copy_from_sqlite(conn, t)
        conn.execute("COMMIT")
        conn.execute("DETACH DATABASE src")
    else:
        for t in schema:
            copy_from_mysql(conn, a.db, t)
        conn.execute("COMMIT")
    # An index per foreign key, as MySQL's InnoDB keeps one for every
    # foreign key of the source: without them joins scan whole tables.
    for t in schema:
        for i, fk in enumerate(t["fks"]):
            conn.execute(f"CREATE INDEX {q(t['name'] + '_fk' + str(i))} ON {q(t['name'])} ("
                         + ", ".join(q(c) for c in fk["cols"]) + ")")
    conn.close()


if __name__ == "__main__":
    main()
