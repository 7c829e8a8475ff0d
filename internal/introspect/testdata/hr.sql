-- A small HR database: departments, employees, salary history, job grades and an audit log.

-- Portable SQL: SQLite, PostgreSQL and MariaDB all accept it as it is.

-- salary_history has a composite primary key, job_grades only a unique NOT NULL column, audit_log no key at all.

CREATE TABLE departments (
  department_id INTEGER PRIMARY KEY,
  department_name VARCHAR(100) NOT NULL,
  location VARCHAR(50) NOT NULL,
  budget DECIMAL(12,2) NOT NULL
);

CREATE TABLE employees (
  employee_id INTEGER PRIMARY KEY,
  first_name VARCHAR(50) NOT NULL,
  last_name VARCHAR(50) NOT NULL,
  email VARCHAR(100) NOT NULL UNIQUE,
  job_title VARCHAR(100) NOT NULL,
  department_id INTEGER NOT NULL,
  manager_id INTEGER,
  hire_date DATE NOT NULL,
  birth_date DATE NOT NULL,
  salary DECIMAL(10,2) NOT NULL,
  is_manager INTEGER NOT NULL,
  FOREIGN KEY (department_id) REFERENCES departments (department_id),
  FOREIGN KEY (manager_id) REFERENCES employees (employee_id)
);

CREATE TABLE salary_history (
  employee_id INTEGER NOT NULL,
  effective_date DATE NOT NULL,
  salary DECIMAL(10,2) NOT NULL,
  PRIMARY KEY (employee_id, effective_date),
  FOREIGN KEY (employee_id) REFERENCES employees (employee_id)
);

CREATE TABLE job_grades (
  grade_code VARCHAR(5) NOT NULL UNIQUE,
  min_salary DECIMAL(10,2) NOT NULL,
  max_salary DECIMAL(10,2) NOT NULL
);

CREATE TABLE audit_log (
  logged_at TIMESTAMP NULL,
  action VARCHAR(20) NOT NULL,
  detail VARCHAR(200)
);

INSERT INTO departments (department_id, department_name, location, budget) VALUES
  (1, 'Engineering', 'Berlin', 1250000.00),
  (2, 'Sales', 'London', 640000.00),
  (3, 'Marketing', 'London', 410000.00),
  (4, 'Finance', 'Berlin', 380000.00),
  (5, 'People Operations', 'Lisbon', 220000.00);

INSERT INTO employees (employee_id, first_name, last_name, email, job_title, department_id, manager_id, hire_date, birth_date, salary, is_manager) VALUES
  (1, 'Amara', 'Adeyemi', 'amara.adeyemi@example.com', 'Engineering Manager', 1, NULL, '2013-03-09', '1965-03-07', 106000.00, 1),
  (2, 'Ben', 'Brandt', 'ben.brandt@example.com', 'Sales Manager', 2, NULL, '2022-05-17', '1975-05-15', 131000.00, 1),
  (3, 'Carla', 'Costa', 'carla.costa@example.com', 'Marketing Manager', 3, NULL, '2022-03-09', '1984-01-09', 71000.00, 1),
  (4, 'Dmitri', 'Ivanov', 'dmitri.ivanov@example.com', 'Finance Manager', 4, NULL, '2012-01-24', '1994-09-07', 132000.00, 1),
  (5, 'Eva', 'Lindqvist', 'eva.lindqvist@example.com', 'HR Manager', 5, NULL, '2019-04-15', '1968-11-27', 150000.00, 1),
  (6, 'Felix', 'Wagner', 'felix.wagner@example.com', 'Accountant', 4, 4, '2020-07-17', '1981-12-07', 71000.00, 0),
  (7, 'Gita', 'Sharma', 'gita.sharma@example.com', 'Marketing Specialist', 3, 3, '2023-12-21', '1970-07-12', 48000.00, 0),
  (8, 'Hamid', 'Karimi', 'hamid.karimi@example.com', 'Software Engineer', 1, 1, '2013-11-24', '1978-07-06', 49000.00, 0),
  (9, 'Iris', 'Dubois', 'iris.dubois@example.com', 'QA Engineer', 1, 1, '2018-09-22', '1980-10-08', 130000.00, 0),
  (10, 'Jae', 'Park', 'jae.park@example.com', 'Account Executive', 2, 2, '2019-03-06', '1979-08-01', 75000.00, 0),
  (11, 'Kofi', 'Mensah', 'kofi.mensah@example.com', 'Marketing Specialist', 3, 3, '2020-06-08', '1964-05-07', 87000.00, 0),
  (12, 'Lucia', 'Ferrari', 'lucia.ferrari@example.com', 'Software Engineer', 1, 1, '2017-07-03', '1992-05-17', 125000.00, 0),
  (13, 'Marek', 'Kowalski', 'marek.kowalski@example.com', 'Account Executive', 2, 2, '2020-01-03', '1978-02-05', 93000.00, 0),
  (14, 'Nadia', 'Haddad', 'nadia.haddad@example.com', 'Senior Software Engineer', 1, 1, '2012-05-10', '1976-02-19', 109000.00, 0),
  (15, 'Oscar', 'Nilsson', 'oscar.nilsson@example.com', 'QA Engineer', 1, 1, '2023-10-13', '1982-12-16', 61000.00, 0),
  (16, 'Paula', 'Moreau', 'paula.moreau@example.com', 'Account Executive', 2, 2, '2012-12-17', '1989-12-23', 106000.00, 0),
  (17, 'Ravi', 'Iyer', 'ravi.iyer@example.com', 'QA Engineer', 1, 1, '2024-09-19', '1963-11-19', 133000.00, 0),
  (18, 'Sofia', 'Rossi', 'sofia.rossi@example.com', 'Account Executive', 2, 2, '2012-01-05', '1985-02-13', 99000.00, 0),
  (19, 'Tomas', 'Novak', 'tomas.novak@example.com', 'QA Engineer', 1, 1, '2012-11-18', '1977-08-09', 42000.00, 0),
  (20, 'Uma', 'Reddy', 'uma.reddy@example.com', 'HR Generalist', 5, 5, '2023-09-18', '1967-11-17', 50000.00, 0),
  (21, 'Victor', 'Santos', 'victor.santos@example.com', 'HR Generalist', 5, 5, '2024-02-28', '1978-04-24', 138000.00, 0),
  (22, 'Wen', 'Li', 'wen.li@example.com', 'Account Executive', 2, 2, '2023-11-15', '1993-07-03', 103000.00, 0),
  (23, 'Xavier', 'Ortiz', 'xavier.ortiz@example.com', 'Account Executive', 2, 2, '2021-11-21', '1974-02-20', 60000.00, 0),
  (24, 'Yara', 'Aziz', 'yara.aziz@example.com', 'Marketing Specialist', 3, 3, '2022-12-23', '1981-10-19', 59000.00, 0),
  (25, 'Zane', 'Cole', 'zane.cole@example.com', 'Senior Software Engineer', 1, 1, '2012-08-09', '1968-12-07', 128000.00, 0),
  (26, 'Aiko', 'Tanaka', 'aiko.tanaka@example.com', 'HR Generalist', 5, 5, '2023-09-10', '1991-08-15', 140000.00, 0),
  (27, 'Bilal', 'Khan', 'bilal.khan@example.com', 'QA Engineer', 1, 1, '2015-05-03', '1992-01-10', 100000.00, 0),
  (28, 'Chloe', 'Martin', 'chloe.martin@example.com', 'QA Engineer', 1, 1, '2019-05-13', '1975-04-03', 116000.00, 0),
  (29, 'Diego', 'Alvarez', 'diego.alvarez@example.com', 'Software Engineer', 1, 1, '2023-09-09', '1985-03-20', 122000.00, 0),
  (30, 'Esme', 'Fischer', 'esme.fischer@example.com', 'Account Executive', 2, 2, '2023-06-08', '1993-08-13', 45000.00, 0);

INSERT INTO salary_history (employee_id, effective_date, salary) VALUES
  (1, '2013-03-09', 103000.00),
  (2, '2022-05-17', 128000.00),
  (3, '2022-03-09', 65000.00),
  (3, '2023-01-01', 68000.00),
  (4, '2012-01-24', 123000.00),
  (4, '2013-01-01', 126000.00),
  (4, '2014-01-01', 129000.00),
  (5, '2019-04-15', 144000.00),
  (5, '2020-01-01', 147000.00),
  (6, '2020-07-17', 65000.00),
  (6, '2021-01-01', 68000.00),
  (7, '2023-12-21', 42000.00),
  (7, '2024-01-01', 45000.00),
  (8, '2013-11-24', 40000.00),
  (8, '2014-01-01', 43000.00),
  (8, '2015-01-01', 46000.00),
  (9, '2018-09-22', 127000.00),
  (10, '2019-03-06', 69000.00),
  (10, '2020-01-01', 72000.00),
  (11, '2020-06-08', 81000.00),
  (11, '2021-01-01', 84000.00),
  (12, '2017-07-03', 119000.00),
  (12, '2018-01-01', 122000.00),
  (13, '2020-01-03', 87000.00),
  (13, '2021-01-01', 90000.00),
  (14, '2012-05-10', 106000.00),
  (15, '2023-10-13', 55000.00),
  (15, '2024-01-01', 58000.00),
  (16, '2012-12-17', 103000.00),
  (17, '2024-09-19', 127000.00),
  (17, '2025-01-01', 130000.00),
  (18, '2012-01-05', 93000.00),
  (18, '2013-01-01', 96000.00),
  (19, '2012-11-18', 36000.00),
  (19, '2013-01-01', 39000.00),
  (20, '2023-09-18', 47000.00);

INSERT INTO job_grades (grade_code, min_salary, max_salary) VALUES
  ('A', 40000.00, 60000.00),
  ('B', 55000.00, 80000.00),
  ('C', 75000.00, 110000.00),
  ('D', 100000.00, 150000.00),
  ('E', 140000.00, 200000.00);

INSERT INTO audit_log (logged_at, action, detail) VALUES
  ('2024-03-01 09:12:00', 'login', 'admin'),
  ('2024-03-01 09:15:30', 'update', 'salary of employee 7'),
  ('2024-03-02 17:40:00', 'export', 'payroll.csv'),
  ('2024-03-05 08:01:10', 'login', 'hr'),
  ('2024-03-05 08:03:44', 'update', 'department of employee 12'),
  ('2024-03-09 12:00:00', 'logout', NULL);

-- Business trips: two columns share their values (origin and destination cities).
CREATE TABLE business_trips (
  trip_id INTEGER PRIMARY KEY,
  employee_id INTEGER NOT NULL,
  origin_city VARCHAR(50) NOT NULL,
  destination_city VARCHAR(50) NOT NULL,
  trip_date DATE NOT NULL,
  distance_km INTEGER NOT NULL,
  status VARCHAR(20) NOT NULL,
  FOREIGN KEY (employee_id) REFERENCES employees (employee_id)
);

INSERT INTO business_trips (trip_id, employee_id, origin_city, destination_city, trip_date, distance_km, status) VALUES
  (1, 1, 'London', 'Paris', '2024-01-10', 460, 'completed'),
  (2, 2, 'Paris', 'London', '2024-01-12', 460, 'completed'),
  (3, 3, 'London', 'Berlin', '2024-02-03', 1100, 'completed'),
  (4, 4, 'Berlin', 'Paris', '2024-02-20', 1050, 'cancelled'),
  (5, 5, 'London', 'Paris', '2024-03-01', 460, 'completed'),
  (6, 1, 'Paris', 'Berlin', '2024-03-15', 1050, 'in_progress'),
  (7, 6, 'Berlin', 'London', '2024-04-02', 1100, 'completed'),
  (8, 7, 'London', 'Madrid', '2024-04-18', 1700, 'in_progress'),
  (9, 8, 'Madrid', 'London', '2024-05-05', 1700, 'completed'),
  (10, 2, 'London', 'Paris', '2024-05-21', 460, 'cancelled');
