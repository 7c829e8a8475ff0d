-- Staff whose assignments and salaries hold for periods, as in HR
-- databases that keep history: a row holds from from_date to to_date, and
-- the current row ends on the far-future date 9999-01-01.

-- Portable SQL: SQLite, PostgreSQL and MariaDB all accept it as it is.

CREATE TABLE staff (
  staff_id INTEGER PRIMARY KEY,
  first_name VARCHAR(50) NOT NULL,
  last_name VARCHAR(50) NOT NULL,
  hire_date DATE NOT NULL
);

CREATE TABLE units (
  unit_id INTEGER PRIMARY KEY,
  unit_name VARCHAR(50) NOT NULL
);

CREATE TABLE unit_assignments (
  staff_id INTEGER NOT NULL,
  unit_id INTEGER NOT NULL,
  from_date DATE NOT NULL,
  to_date DATE NOT NULL,
  PRIMARY KEY (staff_id, unit_id, from_date),
  FOREIGN KEY (staff_id) REFERENCES staff (staff_id),
  FOREIGN KEY (unit_id) REFERENCES units (unit_id)
);

CREATE TABLE pay (
  staff_id INTEGER NOT NULL,
  salary INTEGER NOT NULL,
  from_date DATE NOT NULL,
  to_date DATE NOT NULL,
  PRIMARY KEY (staff_id, from_date),
  FOREIGN KEY (staff_id) REFERENCES staff (staff_id)
);

INSERT INTO staff (staff_id, first_name, last_name, hire_date) VALUES
  (1, 'Ada', 'Moreau', '2015-03-02'),
  (2, 'Bruno', 'Keller', '2016-07-11'),
  (3, 'Chiara', 'Rossi', '2018-01-15'),
  (4, 'Dev', 'Patel', '2019-09-01'),
  (5, 'Elena', 'Sousa', '2020-02-03'),
  (6, 'Farid', 'Haddad', '2017-05-22');

INSERT INTO units (unit_id, unit_name) VALUES
  (1, 'Research'),
  (2, 'Support'),
  (3, 'Finance');

-- Bruno moved from Support to Research; Farid left in 2021.
INSERT INTO unit_assignments (staff_id, unit_id, from_date, to_date) VALUES
  (1, 1, '2015-03-02', '9999-01-01'),
  (2, 2, '2016-07-11', '2020-12-31'),
  (2, 1, '2021-01-01', '9999-01-01'),
  (3, 2, '2018-01-15', '9999-01-01'),
  (4, 3, '2019-09-01', '9999-01-01'),
  (5, 2, '2020-02-03', '9999-01-01'),
  (6, 3, '2017-05-22', '2021-06-30');

INSERT INTO pay (staff_id, salary, from_date, to_date) VALUES
  (1, 70000, '2015-03-02', '2019-12-31'),
  (1, 82000, '2020-01-01', '9999-01-01'),
  (2, 55000, '2016-07-11', '2020-12-31'),
  (2, 64000, '2021-01-01', '9999-01-01'),
  (3, 48000, '2018-01-15', '9999-01-01'),
  (4, 91000, '2019-09-01', '9999-01-01'),
  (5, 52000, '2020-02-03', '9999-01-01'),
  (6, 99000, '2017-05-22', '2021-06-30');

-- Occupational health screenings: each result beside its normal limits
-- (drafted as the result's reference range).
CREATE TABLE screenings (
  screening_id INTEGER PRIMARY KEY,
  staff_id INTEGER NOT NULL,
  screened_on DATE NOT NULL,
  test_name VARCHAR(50) NOT NULL,
  result REAL NOT NULL,
  reference_low REAL,
  reference_high REAL,
  FOREIGN KEY (staff_id) REFERENCES staff (staff_id)
);

-- Workplace noise checks: a level with its own limits.
CREATE TABLE noise_checks (
  check_id INTEGER PRIMARY KEY,
  unit_id INTEGER NOT NULL,
  noise_level REAL NOT NULL,
  noise_level_min REAL NOT NULL,
  noise_level_max REAL NOT NULL,
  FOREIGN KEY (unit_id) REFERENCES units (unit_id)
);
