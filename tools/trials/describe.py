#!/usr/bin/env python3
"""Describe SQLite files for question writers, and summarise them.

  describe.py schema DB.sqlite          plain-text description to stdout:
                                        every table, its columns (name, type,
                                        NOT NULL), primary key, foreign keys,
                                        row count and 3 sample rows
  describe.py summary A.sqlite ...      markdown table: name, tables, rows,
                                        size, and per-table row counts
  describe.py fkcheck DB.sqlite         PRAGMA foreign_key_check, summarised
"""
import os
import sqlite3
import sys

MAX_CELL = 60


def tables(conn):
    return [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")]


def qi(name):
    return '"' + name.replace('"', '""') + '"'


def cell(v):
    if v is None:
        return "NULL"
    if isinstance(v, bytes):
        return f"<blob {len(v)} bytes>"
    s = str(v).replace("\r", " ").replace("\n", " ").replace("\t", " ")
    return s if len(s) <= MAX_CELL else s[:MAX_CELL - 3] + "..."


def schema(path):
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    name = os.path.splitext(os.path.basename(path))[0]
    ts = tables(conn)
    total = sum(conn.execute(f"SELECT count(*) FROM {qi(t)}").fetchone()[0] for t in ts)
    out = [f"DATABASE {name}  ({len(ts)} tables, {total} rows; SQLite)", ""]
    for t in ts:
        n = conn.execute(f"SELECT count(*) FROM {qi(t)}").fetchone()[0]
        info = conn.execute(f"PRAGMA table_info({qi(t)})").fetchall()
        pk = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5]]
        out.append(f"TABLE {t}  ({n} rows)")
        out.append("  columns:")
        w = max(len(r[1]) for r in info)
        for r in info:
            flags = " NOT NULL" if r[3] else ""
            out.append(f"    {r[1].ljust(w)}  {r[2]}{flags}")
        out.append("  primary key: " + (", ".join(pk) if pk else "(none)"))
        fks = {}
        for r in conn.execute(f"PRAGMA foreign_key_list({qi(t)})").fetchall():
            fks.setdefault(r[0], []).append(r)
        if fks:
            out.append("  foreign keys:")
            for fid in sorted(fks, reverse=True):  # ids count from the last declared
                rs = sorted(fks[fid], key=lambda r: r[1])
                src = ", ".join(r[3] for r in rs)
                dst = ", ".join(r[4] for r in rs)
                out.append(f"    ({src}) -> {rs[0][2]}({dst})")
        else:
            out.append("  foreign keys: (none)")
        cur = conn.execute(f"SELECT * FROM {qi(t)} LIMIT 3")
        cols = [d[0] for d in cur.description]
        rows = cur.fetchall()
        out.append("  sample rows:")
        out.append("    " + "|".join(cols))
        for row in rows:
            out.append("    " + "|".join(cell(v) for v in row))
        out.append("")
    return "\n".join(out)


def summary(paths):
    out = ["| database | tables | total rows | size | rows per table |",
           "|---|---:|---:|---:|---|"]
    for p in paths:
        conn = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
        counts = [(t, conn.execute(f"SELECT count(*) FROM {qi(t)}").fetchone()[0]) for t in tables(conn)]
        size = os.path.getsize(p)
        name = os.path.splitext(os.path.basename(p))[0]
        per = ", ".join(f"{t} {n}" for t, n in counts)
        out.append(f"| {name} | {len(counts)} | {sum(n for _, n in counts)} | "
                   f"{size / 1e6:.1f} MB | {per} |")
    return "\n".join(out)


def fkcheck(path):
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    agg = {}
    for table, _rowid, parent, fkid in conn.execute("PRAGMA foreign_key_check"):
        fk = [r for r in conn.execute(f"PRAGMA foreign_key_list({qi(table)})") if r[0] == fkid]
        cols = ",".join(r[3] for r in fk)
        key = f"{table}({cols}) -> {parent}"
        agg[key] = agg.get(key, 0) + 1
    if not agg:
        return "foreign_key_check: clean"
    return "\n".join(f"foreign_key_check: {n} rows of {k} have no parent row" for k, n in sorted(agg.items()))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd = sys.argv[1]
    if cmd == "schema":
        print(schema(sys.argv[2]))
    elif cmd == "summary":
        print(summary(sys.argv[2:]))
    elif cmd == "fkcheck":
        print(fkcheck(sys.argv[2]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
