-- A small SQLite database of the metadata pool test
-- (open_sqlite_test.go): one table with an index.
CREATE TABLE readings (id INTEGER PRIMARY KEY, sensor TEXT NOT NULL, taken_at TEXT NOT NULL, value REAL NOT NULL);
CREATE INDEX readings_sensor_taken_at_idx ON readings (sensor, taken_at);
INSERT INTO readings (sensor, taken_at, value) VALUES
  ('north', '2026-01-01 00:00:00', 1.5),
  ('north', '2026-01-02 00:00:00', 2.5),
  ('south', '2026-01-01 00:00:00', 3.5);
