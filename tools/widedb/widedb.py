#!/usr/bin/env python3
"""Writes a wide database for timing a cold source's first question.

TABLES tables t0..t{TABLES-1} of ROWS rows each: id, name ("colour-N",
unique), colour (16 words), category (8 words) and, from t1 on, a reference
to the table before. Every table has three columns whose values a drafted
model reads from the database, so the first question on it starts
3 x TABLES value loads.

  widedb.py sqlite OUT.db [TABLES [ROWS]]   a SQLite file (deleted first)
  widedb.py postgres [TABLES [ROWS]]        SQL for psql, on standard output
  widedb.py mariadb [TABLES [ROWS]]         SQL for the mariadb client (its
                                            sequence engine), on standard output

The SQLite file is the same at every run (seeded); the PostgreSQL script
draws with setseed, the MariaDB one with RAND(seed) per row.
"""
import random
import sqlite3
import sys

COLOURS = ["red", "green", "blue", "mauve", "teal", "amber", "olive", "navy",
           "coral", "ivory", "khaki", "plum", "rust", "sand", "slate", "jade"]
CATEGORIES = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]


def create(t):
    ref = f", t{t-1}_id INTEGER REFERENCES t{t-1}(id)" if t else ""
    return (f"CREATE TABLE t{t} (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, "
            f"colour TEXT, category TEXT{ref})")


def sqlite(path, tables, rows):
    import os
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    r = random.Random(1)
    for t in range(tables):
        db.execute(create(t))
        data = []
        for i in range(rows):
            c = r.choice(COLOURS)
            ref = (r.randint(1, rows),) if t else ()
            data.append((i + 1, f"{c}-{i}", c, r.choice(CATEGORIES)) + ref)
        marks = ",".join("?" * len(data[0]))
        db.executemany(f"INSERT INTO t{t} VALUES ({marks})", data)
    db.commit()
    db.close()


def postgres(tables, rows):
    arr = lambda ws: "ARRAY[" + ",".join(f"'{w}'" for w in ws) + "]"
    print("SELECT setseed(0.1);")
    for t in range(tables):
        print(create(t) + ";")
        ref = f", 1 + floor(random()*{rows})::int" if t else ""
        print(f"INSERT INTO t{t} SELECT i, c || '-' || (i-1), c, "
              f"({arr(CATEGORIES)})[1 + floor(random()*{len(CATEGORIES)})::int]{ref} "
              f"FROM (SELECT i, ({arr(COLOURS)})[1 + floor(random()*{len(COLOURS)})::int] AS c "
              f"FROM generate_series(1, {rows}) i) s;")
    print("ANALYZE;")


def mariadb(tables, rows):
    arr = lambda ws: ", ".join(f"'{w}'" for w in ws)
    for t in range(tables):
        print(create(t).replace("TEXT UNIQUE", "VARCHAR(40) UNIQUE").replace(" TEXT", " VARCHAR(20)") + ";")
        ref = f", 1 + FLOOR(RAND(seq) * {rows})" if t else ""
        print(f"INSERT INTO t{t} SELECT seq, CONCAT(c, '-', seq - 1), c, "
              f"ELT(1 + FLOOR(RAND(seq + 7) * {len(CATEGORIES)}), {arr(CATEGORIES)}){ref} "
              f"FROM (SELECT seq, ELT(1 + FLOOR(RAND(seq * {t + 3}) * {len(COLOURS)}), {arr(COLOURS)}) AS c "
              f"FROM seq_1_to_{rows}) s;")


def main(argv):
    if len(argv) < 2 or argv[1] not in ("sqlite", "postgres", "mariadb") or (argv[1] == "sqlite" and len(argv) < 3):
        sys.exit(__doc__)
    if argv[1] == "sqlite":
        rest = [int(a) for a in argv[3:]]
        sqlite(argv[2], *(rest + [80, 30000][len(rest):]))
    else:
        rest = [int(a) for a in argv[2:]]
        (postgres if argv[1] == "postgres" else mariadb)(*(rest + [80, 30000][len(rest):]))


if __name__ == "__main__":
    main(sys.argv)
